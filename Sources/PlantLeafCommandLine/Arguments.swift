import PlantLeafCore
import PlantLeafCamera

/// The parsed form of `--option value`, `--option=value`, `--flag` and positional arguments.
/// `--` ends the options. Unknown options are usage errors.
public struct Arguments {
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    /// Where each positional argument was in the list parsed, to find its original bytes.
    public private(set) var positionalIndices: [Int] = []

    /// Splits `arguments` into the options of `table` that take a value, its flags (each recorded
    /// under its `OptionSpec.name`, so -h is --help), and positionals.
    /// - Throws: `UsageError` for an unknown option, a valued option without its value, or a flag given a value.
    public init(_ arguments: [String], options table: [OptionSpec]) throws(UsageError) {
        var valued: Set<String> = []
        var flagNames: [String: String] = [:]
        for option in table {
            for name in option.names {
                if option.kind == .flag { flagNames[name] = option.name } else { valued.insert(name) }
            }
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                positionalIndices.append(index - 1)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let name: String
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            if valued.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else if let flag = flagNames[name], inlineValue == nil {
                flags.insert(flag)
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }

    /// Whether `flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of option `name`, if it was given.
    public func string(_ name: String) -> String? { values[name] }

    /// The option's whole number, which must lie in `range` (the range each option documents in
    /// its help). Digits too many for an Int are out of range, not "not a number".
    ///
    /// - Throws: `UsageError` when the value is not a whole number in `range`.
    public func integer(_ name: String, default defaultValue: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return defaultValue }
        let outOfRange = UsageError("\(name) must be from \(OptionRange.phrase(range)), got \(text)")
        guard let value = Int(text) else {
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
            throw !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                ? outOfRange : UsageError("\(name) must be a whole number, got '\(text)'")
        }
        guard range.contains(value) else { throw outOfRange }
        return value
    }

    /// The option's number, which must lie in `range`; `aboveLowerBound` excludes the bound itself
    /// (durations and rates, where 0 means nothing).
    ///
    /// - Throws: `UsageError` when the value is not a finite number in `range`.
    public func double(_ name: String, range: ClosedRange<Double>, aboveLowerBound: Bool = false) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), !value.isNaN else { throw UsageError("\(name) must be a number, got '\(text)'") }
        guard range.contains(value), !(aboveLowerBound && value == range.lowerBound) else {
            let allowed: String = aboveLowerBound ? OptionRange.phraseAboveLowerBound(range) : "from " + OptionRange.phrase(range)
            throw UsageError("\(name) must be \(allowed), got \(text)")
        }
        return value
    }

    /// The option's duration in seconds: a number with a unit, ms, s, m or h ("500ms", "30s",
    /// "5m", "1h"; a bare number is seconds), which must lie in `range`.
    ///
    /// - Throws: `UsageError` when the value is not a duration in `range`.
    public func duration(_ name: String, range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
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

    /// The value of option `name`, which must be one of `choices`; `defaultValue` when not given.
    /// - Throws: `UsageError` naming the choices when the value is another.
    public func choice(_ name: String, from choices: [String], default defaultValue: String) throws(UsageError) -> String {
        guard let text = values[name] else { return defaultValue }
        guard choices.contains(text) else { throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'") }
        return text
    }
}

extension Arguments {
    /// The verdict policy of --checks LIST and --min-score X, with `defaultChecks` when
    /// --checks is not given and the measured thresholds otherwise.
    func verdictPolicy(defaultChecks: VerdictChecks) throws(UsageError) -> VerdictPolicy {
        var policy = VerdictPolicy(checks: defaultChecks)
        if let text = string("--checks") {
            do {
                policy.checks = try VerdictChecks(parsing: text)
            } catch {
                throw UsageError("--checks: \(error.message)")
            }
        }
        policy.minimumScore = try double("--min-score", range: OptionRange.minimumScore) ?? policy.minimumScore
        return policy
    }

    /// --crop MODE, `defaultMode` when not given.
    func cropMode(default defaultMode: CropMode) throws(UsageError) -> CropMode {
        let modes: [String] = CropMode.allCases.map(\.rawValue)
        return CropMode(rawValue: try choice("--crop", from: modes, default: defaultMode.rawValue))!
    }
}
