import PlantLeafCore
import PlantLeafSupport

/// The checks an option's text goes through on its way to a value, and the usage errors that
/// name the option and what it takes.
enum OptionValue {
    /// A whole number in `range`. Digits too many for an Int are out of range, not "not a number".
    static func integer(_ name: String, _ text: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
        let outOfRange = UsageError("\(name) must be from \(OptionRange.phrase(range)), got \(text)")
        guard let value = Int(text) else {
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
            throw !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                ? outOfRange : UsageError("\(name) must be a whole number, got '\(text)'")
        }
        guard range.contains(value) else { throw outOfRange }
        return value
    }

    /// A finite number in `range`; `aboveLowerBound` excludes the bound itself (durations and
    /// rates, where 0 means nothing).
    static func number(_ name: String, _ text: String, range: ClosedRange<Double>, aboveLowerBound: Bool) throws(UsageError) -> Double {
        guard let value = Double(text), !value.isNaN else { throw UsageError("\(name) must be a number, got '\(text)'") }
        guard range.contains(value), !(aboveLowerBound && value == range.lowerBound) else {
            let allowed: String = aboveLowerBound ? OptionRange.phraseAboveLowerBound(range) : "from " + OptionRange.phrase(range)
            throw UsageError("\(name) must be \(allowed), got \(text)")
        }
        return value
    }

    /// A duration in seconds: a number with a unit, ms, s, m or h ("500ms", "30s", "5m", "1h"; a
    /// bare number is seconds), in `range`.
    static func duration(_ name: String, _ text: String, range: ClosedRange<Double>) throws(UsageError) -> Double {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite else {
            throw UsageError("\(name) must be a duration such as 30s, 5m, 1h or 500ms, got '\(text)'")
        }
        let seconds = number * unit.seconds
        guard range.contains(seconds) else {
            throw UsageError("\(name) must be from \(JSONObject.number(range.lowerBound, decimals: 3)) s "
                + "to \(JSONObject.number(range.upperBound, decimals: 0)) s, got \(text)")
        }
        return seconds
    }

    /// The error for a value that is none of `choices`.
    static func notAChoice(_ name: String, _ text: String, _ choices: [String]) -> UsageError {
        UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
    }
}
