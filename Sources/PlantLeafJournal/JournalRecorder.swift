import PlantLeafCore
import Synchronization

/// The journal as a running process writes it: each camera reading and upload result, the
/// events the camera's readings make, and retention as it goes; and reads for the pages, on a
/// second connection so a page never waits for a write. Shared by the camera's thread and the
/// server's. A write that fails is said once (`report`), and the readings go on
/// without the journal until writing works again; so is each damaged row a read passes over.
public final class JournalRecorder: Sendable {
    public let settings: JournalSettings
    private let writer: Mutex<Writer>
    private let reader: Mutex<Journal?>
    private let report: @Sendable (JournalNotice) -> Void

    /// How many readings go between two retention checks: a check is a few pragma reads, and a
    /// hundred readings are some 15 KB.
    static let readingsPerRetentionCheck = 100

    private struct Writer {
        var journal: Journal
        var events: EventFollower
        var sinceRetention = 0
        /// The last failure said, so it is said once rather than at every reading.
        var failure: JournalError?
    }

    /// Opens (or makes) the journal and enforces retention once.
    /// - Throws: `JournalError` when it cannot be opened for writing.
    public init(settings: JournalSettings, report: @escaping @Sendable (JournalNotice) -> Void) throws(JournalError) {
        let journal = try Journal(path: settings.path)
        try journal.enforce(settings.retention, now: .now())
        self.settings = settings
        self.report = report
        writer = Mutex(Writer(journal: journal, events: EventFollower(readingsToHold: settings.eventReadings)))
        reader = Mutex(nil)
    }

    /// Writes one reading of `source` at `time`, follows its events and keeps its hour's
    /// snapshot for the day's strip (uploads make neither: they are pictures of many plants). `picture` is asked for only when the reading may start an
    /// event; `readingPicture` (JPEG) is kept as the reading's own (an upload's). Returns the
    /// state of the source's lasting event after this reading.
    @discardableResult
    public func record(_ record: ReadingRecord, source: String, time: JournalTime, makesEvents: Bool, readingPicture: [UInt8]? = nil,
                       picture: @Sendable () -> [UInt8]?) -> JournalState? {
        writer.withLock { writer -> JournalState? in
            do throws(JournalError) {
                try writer.journal.insert(record, source: source, time: time, picture: readingPicture)
                var established: JournalState?
                // The size is checked after a reading with its picture, as after an event's picture below.
                writer.sinceRetention = readingPicture == nil ? writer.sinceRetention + 1 : JournalRecorder.readingsPerRetentionCheck
                if makesEvents {
                    let followed = try writer.events.follow(record, source: source, time: time, in: writer.journal, picture: picture)
                    established = followed.established
                    // A picture weighs as much as a couple of hundred readings: the size is checked after each.
                    if try writer.journal.keepSnapshot(source: source, time: time, picture: picture) || followed.began {
                        writer.sinceRetention = JournalRecorder.readingsPerRetentionCheck
                    }
                }
                if writer.sinceRetention >= JournalRecorder.readingsPerRetentionCheck {
                    writer.sinceRetention = 0
                    try writer.journal.enforce(settings.retention, now: time)
                }
                if writer.failure != nil {
                    writer.failure = nil
                    report(.writingAgain(path: settings.path))
                }
                return established
            } catch {
                if writer.failure != error { report(.writeFailed(error)) }
                writer.failure = error
                return nil
            }
        }
    }

    /// Runs `body` on the reading connection, opened on first use.
    public func read<Result: Sendable>(_ body: (Journal) throws(JournalError) -> Result) throws(JournalError) -> Result {
        try reader.withLock { (journal: inout Journal?) throws(JournalError) -> Result in
            if journal == nil { journal = try Journal(path: settings.path, readOnly: true) }
            let reading = journal!
            // Each row passed over is said once, and the page shows the others.
            defer { for row in reading.takeDamagedRows() { report(.rowPassedOver(path: settings.path, row: row)) } }
            return try body(reading)
        }
    }
}
