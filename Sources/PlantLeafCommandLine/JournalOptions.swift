import Glibc
import PlantLeafCore
import PlantLeafJournal

/// Where and how camera and serve keep the journal: --journal FILE or --no-journal, events'
/// hysteresis and retention. Both commands take the same declarations.
public struct JournalOptions: OptionGroup, Equatable {
    /// --journal FILE; nil: the default path.
    @Bound(JournalOptions.journal) public var path: String?
    /// --no-journal.
    @Bound(Flag("--no-journal", help: .lines(["keep no journal"]))) public var disabled: Bool
    @Bound(JournalOptions.eventReadings) public var eventReadings: Int
    @Bound(Declare.number("--keep-days", placeholder: "DAYS", range: RetentionPolicy.keepDaysRange,
                          default: RetentionPolicy.defaultKeepDays) { range, fallback in
        .lines(["delete readings and events older than DAYS, \(range) (default: \(fallback))"])
    }) var keepDays: Double
    @Bound(Declare.integer("--max-journal-size", placeholder: "MIB", range: 1...(1 << 20),
                           default: Int(RetentionPolicy.defaultMaxBytes >> 20)) { range, fallback in
        .lines(["keep the journal under MIB MiB: the oldest readings go first, events' pictures",
                "last, \(range) (default: \(fallback))"])
    }) var maxMebibytes: Int

    /// What the journal keeps: --keep-days and --max-journal-size.
    public var retention: RetentionPolicy { RetentionPolicy(keepDays: keepDays, maxBytes: Int64(maxMebibytes) << 20) }

    /// No journal options: the default journal, kept.
    public init() {}

    /// --journal FILE, which journal's --journal describes as the file read.
    static let journal = Declare.text("--journal", placeholder: "FILE", help: .lines([
        "keep every reading, and the events they make with their pictures, in the SQLite",
        "file FILE (default: $XDG_STATE_HOME/plantleaf/journal.sqlite, else ~/.local/state/...),",
        "which serve's pages and plantleaf journal read; one that cannot be written is said",
        "in one line, and the readings go on to stdout, --log and --mqtt"]))
    /// --event-readings N, which journal events takes too.
    static let eventReadings = Declare.integer("--event-readings", range: EventTracker.readingsToHoldRange,
                                               default: EventTracker.defaultReadingsToHold) { range, fallback in
        .lines(["readings in a row a new verdict or class must hold to start an event,", "\(range) (default: \(fallback))"])
    }

    /// - Throws: `UsageError` for --journal with --no-journal.
    public func validate() throws(UsageError) {
        if disabled, path != nil { throw UsageError("--journal FILE and --no-journal do not go together") }
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
