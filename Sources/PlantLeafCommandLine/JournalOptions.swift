import Glibc
import PlantLeafCore
import PlantLeafJournal

/// Where and how camera and serve keep the journal: --journal FILE or --no-journal, events'
/// hysteresis and retention. Both commands take the same declarations.
public struct JournalOptions: Sendable, Equatable {
    /// --journal FILE; nil: the default path.
    public var path: String?
    /// --no-journal.
    public var disabled = false
    public var eventReadings = EventTracker.defaultReadingsToHold
    public var retention = RetentionPolicy()

    static let journal = Declare.text("--journal", placeholder: "FILE", help: .lines([
        "keep every reading, and the events they make with their pictures, in the SQLite",
        "file FILE (default: $XDG_STATE_HOME/plantleaf/journal.sqlite, else ~/.local/state/...),",
        "which serve's pages and plantleaf journal read; one that cannot be written is said",
        "in one line, and the readings go on to stdout, --log and --mqtt"]))
    static let noJournal = Flag("--no-journal", help: .lines(["keep no journal"]))
    static let eventReadings = Declare.integer("--event-readings", range: EventTracker.readingsToHoldRange,
                                               default: EventTracker.defaultReadingsToHold) { range, fallback in
        .lines(["readings in a row a new verdict or class must hold to start an event,", "\(range) (default: \(fallback))"])
    }
    static let keepDays = Declare.number("--keep-days", placeholder: "DAYS", range: RetentionPolicy.keepDaysRange,
                                         default: RetentionPolicy.defaultKeepDays) { range, fallback in
        .lines(["delete readings and events older than DAYS, \(range) (default: \(fallback))"])
    }
    static let maxJournalSize = Declare.integer("--max-journal-size", placeholder: "MIB", range: 1...(1 << 20),
                                                default: Int(RetentionPolicy.defaultMaxBytes >> 20)) { range, fallback in
        .lines(["keep the journal under MIB MiB: the oldest readings go first, events' pictures",
                "last, \(range) (default: \(fallback))"])
    }

    static let all: [OptionSpec] = [journal.spec, noJournal.spec, eventReadings.spec, keepDays.spec, maxJournalSize.spec]

    /// These options of `parsed`.
    /// - Throws: `UsageError` for a value out of range, or --journal with --no-journal.
    static func read(_ parsed: Arguments) throws(UsageError) -> JournalOptions {
        var options = JournalOptions()
        options.path = try parsed.value(journal)
        options.disabled = parsed.has(noJournal)
        if options.disabled, options.path != nil { throw UsageError("--journal FILE and --no-journal do not go together") }
        options.eventReadings = try parsed.value(eventReadings)
        options.retention = RetentionPolicy(keepDays: try parsed.value(keepDays), maxBytes: Int64(try parsed.value(maxJournalSize)) << 20)
        return options
    }

    /// The journal's settings, nil with --no-journal or when no path can be made (no HOME).
    var settings: JournalSettings? {
        guard !disabled else { return nil }
        var environment: [String: String] = [:]
        for name in ["XDG_STATE_HOME", "HOME"] { if let value = getenv(name) { environment[name] = String(cString: value) } }
        guard let path = path ?? Journal.defaultPath(environment: environment) else { return nil }
        return JournalSettings(path: path, eventReadings: eventReadings, retention: retention)
    }

    /// Opens the journal these options name; nil with --no-journal, or after saying on stderr in
    /// one line (prefixed `command`, in `catalogue`'s language) why it cannot be kept: the
    /// readings go on without it.
    func recorder(command: String, in catalogue: Catalogue = .english) -> JournalRecorder? {
        guard !disabled else { return nil }
        guard let settings else {
            Console.error("\(command): " + catalogue["journal.notice.no-home"])
            return nil
        }
        do {
            return try JournalRecorder(settings: settings) { notice in Console.error("\(command): \(EventText.line(notice, in: catalogue))") }
        } catch {
            Console.error("\(command): " + catalogue.text("journal.notice.not-kept", ["problem": Remedy.line(error, in: catalogue)]))
            return nil
        }
    }
}
