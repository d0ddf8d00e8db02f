import PlantLeafCore
import PlantLeafSupport

/// Ranges of the numeric options more than one subcommand has (docs/command-line.md's "Numeric ranges"
/// lists every option's). Outside them an option is a usage error, before anything runs.
public enum OptionRange {
    /// CPU threads per inference: more than any board PlantLeaf targets has cores.
    public static let threads = 1...64
    /// Model instances at once (classify --jobs), each with its own --threads.
    public static let jobs = 1...64
    /// --min-score: a score is a probability.
    public static let minimumScore = 0.0...1.0
}

extension OptionRange {
    /// "1 to 1000": a range as the help texts and the usage errors say it.
    static func phrase(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }

    /// "0.1 to 3600": a range of numbers as the help texts and the usage errors say it.
    static func phrase(_ range: ClosedRange<Double>) -> String { number(range.lowerBound) + " to " + number(range.upperBound) }

    /// "above 0 and at most 1000": a range whose lower bound is excluded (durations and rates).
    static func phraseAboveLowerBound(_ range: ClosedRange<Double>) -> String {
        "above " + number(range.lowerBound) + " and at most " + number(range.upperBound)
    }

    /// A bound or a default as the help texts and the usage errors write it: at most three decimals.
    static func number(_ value: Double) -> String { JSONObject.number(value, decimals: 3) }
}
