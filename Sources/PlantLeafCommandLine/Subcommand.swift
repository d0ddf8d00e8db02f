/// One of plantleaf's subcommands: its name and line in `plantleaf --help`, the options it takes
/// (its option groups' entries and its own, in the order its help lists them), its help text and
/// what it runs. `PlantLeafCommand` dispatches to them and lists them from these alone.
protocol Subcommand {
    /// Its name, its line in `plantleaf --help` and its options.
    static var configuration: CommandConfiguration { get }
    /// The help text above the options, down to "OPTIONS:".
    static var helpIntroduction: String { get }
    /// The help text below the options.
    static var helpConclusion: String { get }
    /// Runs it with the arguments after its name; `bytes`: the same arguments as the system
    /// passed them, for a subcommand whose configuration `readsArgumentBytes`. The exit status.
    static func run(_ arguments: [String], bytes: [[UInt8]]) -> Int32
    /// How its lines on stderr start for these arguments: "plantleaf bench compare".
    static func commandLine(_ arguments: [String]) -> String
}

extension Subcommand {
    static var name: String { configuration.name }
    static func commandLine(_ arguments: [String]) -> String { "plantleaf \(name)" }

    /// The help text, its options rendered from the configuration's.
    static var help: String {
        [helpIntroduction, OptionSpec.helpSection(configuration.options, labelWidth: configuration.helpLabelWidth), "", helpConclusion]
            .joined(separator: "\n")
    }
}

/// What `plantleaf --help`, the dispatch and the help text know of a subcommand, one value each
/// (swift-argument-parser's `CommandConfiguration`).
struct CommandConfiguration {
    /// The word after plantleaf: "classify".
    let name: String
    /// What it takes besides options, as `plantleaf --help` shows it ("PATH...", "DIR"); empty for nothing.
    var operands = ""
    /// What it does, in its line of `plantleaf --help`.
    let abstract: String
    /// Every option it takes, in the order its help lists them.
    let options: [OptionSpec]
    /// The width of the help's option column.
    let helpLabelWidth: Int
    /// Whether it reads arguments that are not UTF-8 itself (classify's image paths, kept as
    /// bytes); every other subcommand has them refused before it runs.
    var readsArgumentBytes = false
}
