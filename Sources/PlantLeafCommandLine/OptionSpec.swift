/// What the parser and the help text need of an option: its names, whether it takes a value,
/// and how the help describes it. Each is part of an `Option` or `Flag` declaration; a
/// subcommand's table of these is both what its `Arguments` accept and what its help lists, so
/// the two cannot drift apart.
public struct OptionSpec: Sendable, Equatable {
    /// Every name the option answers to, as the help lists them ("-h", "--help"); `Arguments`
    /// records a flag under the last.
    public let names: [String]
    public let kind: OptionKind
    public let help: OptionHelp

    /// An option with the names `names`.
    public init(names: [String], kind: OptionKind, help: OptionHelp) {
        self.names = names
        self.kind = kind
        self.help = help
    }

    /// An option with one name.
    public init(_ name: String, _ kind: OptionKind, _ help: OptionHelp) {
        self.init(names: [name], kind: kind, help: help)
    }

    /// The name `Arguments` records the option under.
    public var name: String { names[names.count - 1] }

    /// The names, then the value's placeholder: "-h, --help", "--top-k N".
    var label: String {
        let names: String = names.joined(separator: ", ")
        guard case .valued(let placeholder) = kind else { return names }
        return names + " " + placeholder
    }

    /// The OPTIONS section of a help text: each entry's label indented by two spaces and padded to
    /// `labelWidth`, its first line beside it and the rest under that line. A label too long for
    /// the width is followed by two spaces instead.
    static func helpSection(_ table: [OptionSpec], labelWidth: Int) -> String {
        let indent = String(repeating: " ", count: 2 + labelWidth)
        var lines: [String] = []
        var sharedLabel = ""
        for option in table {
            switch option.help {
            case .mentionedIn, .deprecated:
                continue
            case .sharesEntryWithNext(let separator):
                sharedLabel += option.label + separator
            case .lines(let text):
                let label: String = sharedLabel + option.label
                sharedLabel = ""
                let gap = String(repeating: " ", count: max(labelWidth - label.count, 2))
                lines.append("  " + label + gap + text[0])
                for line in text.dropFirst() { lines.append(indent + line) }
            }
        }
        return lines.joined(separator: "\n")
    }
}
