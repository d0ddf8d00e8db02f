/// One of plantleaf's subcommands: its name and line in `plantleaf --help`, the options it takes
/// (its option groups' entries and its own, in the order its help lists them), its help text and
/// what it runs. `PlantLeafCommand` dispatches to them and lists them from these alone.
protocol Subcommand {
    /// The word after plantleaf: "classify".
    static var name: String { get }
    /// What it takes besides options, as `plantleaf --help` shows it ("PATH...", "DIR"); empty for nothing.
    static var operands: String { get }
    /// What it does, in its line of `plantleaf --help`.
    static var abstract: String { get }
    /// Every option it takes, in the order its help lists them.
    static var optionTable: [OptionSpec] { get }
    /// The help text above the options, down to "OPTIONS:".
    static var helpIntroduction: String { get }
    /// The help text below the options.
    static var helpConclusion: String { get }
    /// The width of the help's option column.
    static var helpLabelWidth: Int { get }
    /// Whether it reads arguments that are not UTF-8 itself (classify's image paths, kept as
    /// bytes); every other subcommand has them refused before it runs.
    static var readsArgumentBytes: Bool { get }
    /// Runs it with the arguments after its name; `bytes`: the same arguments as the system
    /// passed them, for a subcommand that `readsArgumentBytes`. The exit status.
    static func run(_ arguments: [String], bytes: [[UInt8]]) -> Int32
    /// How its lines on stderr start for these arguments: "plantleaf bench compare".
    static func commandLine(_ arguments: [String]) -> String
}

extension Subcommand {
    static var operands: String { "" }
    static var readsArgumentBytes: Bool { false }
    static func commandLine(_ arguments: [String]) -> String { "plantleaf \(name)" }

    /// The help text, its options rendered from `optionTable`.
    static var help: String {
        [helpIntroduction, OptionSpec.helpSection(optionTable, labelWidth: helpLabelWidth), "", helpConclusion].joined(separator: "\n")
    }
}
