import PlantLeafCore
import PlantLeafJournal

/// `plantleaf journal`'s arguments: the action (export, import, events), and its options.
public struct JournalCommandOptions: OptionGroup {
    public enum Action: String, Sendable, CaseIterable {
        case export, `import`, events
    }

    public enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    public var help = false
    public var action: Action = .export
    /// --journal FILE, camera's and serve's described as the file read; nil: the default path.
    @Bound(JournalOptions.journal.described(
        .lines(["the journal (default: $XDG_STATE_HOME/plantleaf/journal.sqlite, as camera and serve keep it)"])))
    public var journalPath: String?
    @Bound(time("--since", "export and events: from TIME on (2026-12-07T01:05 local, today, yesterday, 2h ago, or ISO 8601)"))
    public var since: JournalTime?
    @Bound(time("--until", "export and events: before TIME")) public var until: JournalTime?
    @Bound(Declare.text("--source", placeholder: "NAME",
                        help: .lines(["export and events: one camera's (its device or stream) or \"upload\";",
                                      "import: the source of lines that name none (default: the source of",
                                      "the log's readings already in the journal, else \(defaultImportSource))"])))
    public var source: String?
    @Bound(Declare.choice("--format", placeholder: "json|csv", default: Format.json,
                          help: .lines(["export as JSON lines (records, with id and source) or CSV (default: json)"])))
    public var format: Format
    @Bound(JournalOptions.eventReadings) public var eventReadings: Int
    /// import's JSON-lines files.
    public var logPaths: [String] = []
    /// import's source for lines that name none, without --source, when none of the log's
    /// readings is in the journal already.
    static let defaultImportSource = "camera"

    /// export, with no options.
    public init() {}

    /// --since and --until: a time as a grower types it.
    private static func time(_ name: String, _ what: String) -> Option<JournalTime?> {
        Option<JournalTime?>(name, placeholder: "TIME", default: nil, help: .lines([what])) { text throws(UsageError) in
            guard let time = JournalTime(typed: text, now: .now()) else {
                throw UsageError("\(name) must be a time: 2026-12-07T01:05 (this machine's time zone), today, yesterday, 2h or 30m or 3d ago, "
                                 + "or ISO 8601 with its offset, 2026-12-07T01:05:00+02:00; got '\(text)'")
            }
            return time
        }
    }

    public static let optionTable: [OptionSpec] = JournalCommandOptions.options + [SharedOptions.help.spec]

    /// journal's arguments, the action first.
    /// - Throws: `UsageError` for an unknown action or option, or a value out of range.
    public static func parse(_ arguments: [String]) throws(UsageError) -> JournalCommandOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = JournalCommandOptions()
            options.help = true
            return options
        }
        guard let first = parsed.positionals.first else { throw UsageError("give an action: export, import LOG.jsonl..., or events") }
        guard let action = Action(rawValue: first) else { throw OptionValue.notAChoice("the action", first, Action.allCases.map(\.rawValue)) }
        let logPaths = Array(parsed.positionals.dropFirst())
        if action == .import && logPaths.isEmpty { throw UsageError("import takes the JSON-lines files to import (a camera's --log)") }
        if action != .import, let extra = logPaths.first { throw UsageError("unexpected argument '\(extra)'") }
        var options = try read(parsed)
        options.action = action
        options.logPaths = logPaths
        return options
    }
}
