import PlantLeafCore
import PlantLeafJournal

/// `plantleaf journal`'s arguments: the action (export, import, events), and its options.
public struct JournalCommandOptions: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case export, `import`, events
    }

    public enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    public var help = false
    public var action: Action = .export
    /// --journal FILE; nil: the default path.
    public var journalPath: String?
    public var since: JournalTime?
    public var until: JournalTime?
    public var source: String?
    public var format: Format = .json
    /// import's JSON-lines files.
    public var logPaths: [String] = []
    public var eventReadings = EventTracker.defaultReadingsToHold
    /// import's source for lines that name none, without --source, when none of the log's
    /// readings is in the journal already.
    static let defaultImportSource = "camera"

    enum Declared {
        /// camera's and serve's --journal, described as the file read rather than kept.
        static let journal = JournalOptions.journal.described(
            .lines(["the journal (default: $XDG_STATE_HOME/plantleaf/journal.sqlite, as camera and serve keep it)"]))
        static func time(_ name: String, _ what: String) -> Option<JournalTime?> {
            Option<JournalTime?>(name, placeholder: "TIME", default: nil, help: .lines([what])) { text throws(UsageError) in
                guard let time = JournalTime(typed: text, now: .now()) else {
                    throw UsageError("\(name) must be a time: 2026-12-07T01:05 (this machine's time zone), today, yesterday, 2h or 30m or 3d ago, "
                                     + "or ISO 8601 with its offset, 2026-12-07T01:05:00+02:00; got '\(text)'")
                }
                return time
            }
        }
        static let since = time("--since", "export and events: from TIME on (2026-12-07T01:05 local, today, yesterday, 2h ago, or ISO 8601)")
        static let until = time("--until", "export and events: before TIME")
        static let source = Declare.text("--source", placeholder: "NAME",
                                         help: .lines(["export and events: one camera's (its device or stream) or \"upload\";",
                                                       "import: the source of lines that name none (default: the source of",
                                                       "the log's readings already in the journal, else \(defaultImportSource))"]))
        static let format = Declare.choice("--format", placeholder: "json|csv", default: Format.json, help: .lines(["export as JSON lines (records, with id and source) or CSV (default: json)"]))
    }

    public static let optionTable: [OptionSpec] = [Declared.journal.spec, Declared.since.spec, Declared.until.spec, Declared.source.spec,
                                                   Declared.format.spec, JournalOptions.eventReadings.spec, SharedOptions.help.spec]

    /// journal's arguments, the action first.
    /// - Throws: `UsageError` for an unknown action or option, or a value out of range.
    public static func parse(_ arguments: [String]) throws(UsageError) -> JournalCommandOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = JournalCommandOptions()
        if parsed.has(SharedOptions.help) {
            options.help = true
            return options
        }
        guard let first = parsed.positionals.first else { throw UsageError("give an action: export, import LOG.jsonl..., or events") }
        guard let action = Action(rawValue: first) else { throw OptionValue.notAChoice("the action", first, Action.allCases.map(\.rawValue)) }
        options.action = action
        options.logPaths = Array(parsed.positionals.dropFirst())
        if action == .import && options.logPaths.isEmpty { throw UsageError("import takes the JSON-lines files to import (a camera's --log)") }
        if action != .import, let extra = options.logPaths.first { throw UsageError("unexpected argument '\(extra)'") }
        options.journalPath = try parsed.value(Declared.journal)
        options.since = try parsed.value(Declared.since)
        options.until = try parsed.value(Declared.until)
        options.source = try parsed.value(Declared.source)
        options.format = try parsed.value(Declared.format)
        options.eventReadings = try parsed.value(JournalOptions.eventReadings)
        return options
    }
}
