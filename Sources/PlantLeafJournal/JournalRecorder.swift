import PlantLeafCore
import PlantLeafSupport
import Synchronization

/// The journal as a running process writes it: each camera reading and upload result, the
/// events the camera's readings make, and retention as it goes; and reads for the pages, on a
/// second connection so a page never waits for a write. Shared by the camera's thread and the
/// server's.
///
/// Nothing waits on SQLite where readings are made: `record` follows the events in memory, says
/// at once what state its source is in (the problem sensor's), and hands the writes to a thread
/// of the journal's own behind a bounded queue. Another process holding the journal locked, or a
/// slow disk, holds up only that thread; what does not fit in the queue meanwhile is not kept,
/// counted and said in one line. A write that fails is said once (`report`), and the readings go
/// on without the journal until writing works again; so is each damaged row a read passes over.
public final class JournalRecorder: Sendable {
    public let settings: JournalSettings
    private let report: @Sendable (JournalNotice) -> Void
    private let following: Following
    private let queue: Lock<Queue>
    private let reader: Mutex<Reader>
    private let writerThread: Mutex<WorkerThread?>
    /// The readings (and the strip's frames) the queue holds at most.
    private let queueReadings: Int

    /// How many readings go between two retention checks: a check is a few pragma reads, and a
    /// hundred readings are some 15 KB.
    static let readingsPerRetentionCheck = 100
    /// Readings the queue holds at most: minutes of a camera at ten a second, while the lock
    /// another process holds lasts.
    public static let defaultQueueReadings = 4_000
    /// Pictures (uploads' kept photos, the strip's frames) the queue holds at most, in bytes.
    static let queuePictureBytes = 8 << 20
    /// How long a page waits for the writes recorded before it was asked for to land, in
    /// nanoseconds: so an upload's result is on the history page that follows it, while a
    /// journal locked by another process holds the page up for no longer than this.
    static let readWaitNanoseconds: UInt64 = 2_000_000_000

    /// What a reading says about its source's events, as `record` returns it.
    public struct EventStatus: Sendable, Equatable {
        /// The state of the lasting event; nil before the first.
        public var established: JournalState?
        /// The view of the lasting event's leaf is blocked (no leaf or no picture in view): the
        /// event goes on through it.
        public var viewBlocked: Bool
    }

    /// The events each source's readings make, held in memory by the thread that records.
    private final class Following: Sendable {
        struct State {
            var trackers: [String: EventTracker] = [:]
            /// The events the journal had lasting when it was opened, to carry on from.
            var lasting: [String: JournalEvent] = [:]
            /// Each source's hour of its newest snapshot: the strip takes the hour's first frame.
            var snapshotHours: [String: Int64] = [:]
        }
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    /// One write the writer thread makes.
    enum Write: Sendable {
        case reading(ReadingRecord, source: String, time: JournalTime, picture: [UInt8]?)
        case change(EventChange, source: String)
        case snapshot(source: String, time: JournalTime, jpeg: [UInt8])

        /// Readings and the strip's frames may be left out when the queue is full; events' changes
        /// (a few a day, a few bytes) never are, so the events stay whole.
        var isDroppable: Bool { if case .change = self { false } else { true } }

        var pictureBytes: Int {
            switch self {
            case .reading(_, _, _, let picture): return picture?.count ?? 0
            case .snapshot(_, _, let jpeg): return jpeg.count
            case .change(.begins(let beginning), _): return beginning.picture?.count ?? 0
            case .change: return 0
            }
        }
    }

    private struct Queue: Sendable {
        var items: [Write] = []
        /// Droppable writes and pictures' bytes queued or being written: what the bounds count.
        var droppable = 0
        var bytes = 0
        /// Writes queued, and writes the writer is done with (written, or failed and said), ever.
        var enqueued = 0
        var finished = 0
        /// Readings not kept since the queue filled up, until it is empty again.
        var behind = false
        var dropped = 0
        var closing = false
    }

    private struct Reader {
        var journal: Journal?
        var hangUps = 0
    }

    /// Opens (or makes) the journal, enforces retention once and starts the writer thread;
    /// `queueReadings` bounds the readings waiting to be written.
    /// - Throws: `JournalError` when it cannot be opened for writing.
    public init(settings: JournalSettings, queueReadings: Int = JournalRecorder.defaultQueueReadings,
                report: @escaping @Sendable (JournalNotice) -> Void) throws(JournalError) {
        let journal = try Journal(path: settings.path)
        try journal.boundWriteAheadLog(maxBytes: settings.retention.maxBytes)
        try journal.enforce(settings.retention, now: .now())
        var state = Following.State()
        for source in try journal.sourceNames() {
            if let event = try journal.lastingEvent(source: source) { state.lasting[source] = event }
        }
        let following = Following(state)
        let queue = Lock(Queue())
        self.settings = settings
        self.report = report
        self.following = following
        self.queue = queue
        reader = Mutex(Reader(hangUps: HangUp.received.load(ordering: .relaxed)))
        let writer = Writer(journal: journal, settings: settings, report: report, lasting: state.lasting)
        self.queueReadings = queueReadings
        do {
            writerThread = Mutex(try WorkerThread { JournalRecorder.writeUntilClosed(queue: queue, writer: writer) })
        } catch {
            throw .failed(path: settings.path, step: "starting the journal's writer", reason: error.reason)
        }
    }

    deinit { close() }

    /// Writes what is queued and stops the writer thread; the recorder takes no more. Waits for
    /// the writes (a journal locked by another process: a few seconds at most, then what is
    /// left is said not kept).
    public func close() {
        queue.withLock { pending in
            pending.closing = true
            queue.broadcast()
        }
        let thread = writerThread.withLock { thread -> WorkerThread? in
            defer { thread = nil }
            return thread
        }
        thread?.join()
    }

    /// Waits until every write recorded so far is written (or failed and said).
    public func flush() {
        let target = queue.withLock { $0.enqueued }
        queue.withLock(waitingUntil: { $0.finished >= target || $0.closing && $0.items.isEmpty }) { _ in }
    }

    /// Records one reading of `source` at `time`, follows its events and keeps its hour's
    /// snapshot for the day's strip (uploads make neither: they are pictures of many plants);
    /// returns without waiting for the journal. `picture` is asked for only when the reading may
    /// start an event or is its hour's first; `readingPicture` (JPEG) is kept as the reading's
    /// own (an upload's). Returns, for a reading that makes events, what its source's events are
    /// after it.
    @discardableResult
    public func record(_ record: ReadingRecord, source: String, time: JournalTime, makesEvents: Bool, readingPicture: [UInt8]? = nil,
                       picture: @Sendable () -> [UInt8]?) -> EventStatus? {
        var writes: [Write] = [.reading(record, source: source, time: time, picture: readingPicture)]
        var status: EventStatus?
        if makesEvents {
            status = following.state.withLock { state in
                // Encoded once, whether the event or the strip asks first.
                var encoded: [UInt8]??
                func once() -> [UInt8]? {
                    if encoded == nil { encoded = .some(picture()) }
                    return encoded ?? nil
                }
                var tracker = state.trackers[source] ?? EventTracker(readingsToHold: settings.eventReadings, lasting: state.lasting[source])
                for change in tracker.changes(JournalState(record), time: time, picture: once) { writes.append(.change(change, source: source)) }
                state.trackers[source] = tracker
                let hour = time.milliseconds / Journal.hourMilliseconds
                if state.snapshotHours[source] != hour {
                    state.snapshotHours[source] = hour
                    if let jpeg = once() { writes.append(.snapshot(source: source, time: time, jpeg: jpeg)) }
                }
                return EventStatus(established: tracker.established, viewBlocked: tracker.blockedSince != nil)
            }
        }
        let fellBehind = queue.withLock { pending -> Bool in
            let wasBehind = pending.behind
            for write in writes {
                if write.isDroppable && (pending.droppable >= queueReadings || pending.bytes + write.pictureBytes > JournalRecorder.queuePictureBytes) {
                    pending.behind = true
                    if case .reading = write { pending.dropped += 1 }
                    continue
                }
                pending.items.append(write)
                pending.enqueued += 1
                if write.isDroppable { pending.droppable += 1 }
                pending.bytes += write.pictureBytes
            }
            queue.broadcast()
            return pending.behind && !wasBehind
        }
        if fellBehind { report(.fallingBehind(path: settings.path)) }
        return status
    }

    /// Runs `body` on the reading connection, opened on first use, and again when the path
    /// names another file (the journal deleted or moved, and made anew) or after SIGHUP. Waits
    /// first, a little at most, for the writes recorded before.
    public func read<Result: Sendable>(_ body: (Journal) throws(JournalError) -> Result) throws(JournalError) -> Result {
        let target = queue.withLock { $0.enqueued }
        queue.withLock(waitingUntil: { $0.finished >= target }, deadline: MonotonicClock.nanoseconds() + JournalRecorder.readWaitNanoseconds) { _ in }
        return try reader.withLock { (reader: inout Reader) throws(JournalError) -> Result in
            let hangUps = HangUp.received.load(ordering: .relaxed)
            if reader.journal?.isStillAtPath != true || reader.hangUps != hangUps {
                reader.journal = nil
                reader.hangUps = hangUps
                reader.journal = try Journal(path: settings.path, readOnly: true)
            }
            let reading = reader.journal!
            // Each row passed over is said once, and the page shows the others.
            defer { for row in reading.takeDamagedRows() { report(.rowPassedOver(path: settings.path, row: row)) } }
            return try body(reading)
        }
    }

    // MARK: The writer thread

    /// The writer thread: takes what is queued, a batch at a time, until closed.
    private static func writeUntilClosed(queue: Lock<Queue>, writer: sending Writer) {
        var writer = writer
        while true {
            let (batch, closing) = queue.withLock(waitingUntil: { !$0.items.isEmpty || $0.closing }) { pending -> ([Write], Bool) in
                defer { pending.items = [] }
                return (pending.items, pending.closing)
            }
            if batch.isEmpty { return }
            let written = writer.write(batch)
            var notice: JournalNotice?
            let retrying = queue.withLock { pending -> Bool in
                if !written && !closing {
                    // Locked by another process past the busy timeout: the batch waits for the next try, ahead of what came since.
                    pending.items = batch + pending.items
                    return true
                }
                if !written { pending.dropped += batch.filter { if case .reading = $0 { true } else { false } }.count }
                pending.finished += batch.count
                pending.droppable -= batch.filter(\.isDroppable).count
                pending.bytes -= batch.reduce(0) { $0 + $1.pictureBytes }
                if pending.items.isEmpty && (pending.behind || pending.dropped > 0) {
                    notice = .caughtUp(path: writer.settings.path, count: pending.dropped)
                    pending.behind = false
                    pending.dropped = 0
                }
                queue.broadcast()
                return false
            }
            if let notice { writer.report(notice) }
            // A lock that fails at once (rather than after the busy timeout) is not tried in a tight loop.
            if retrying {
                queue.withLock(waitingUntil: { $0.closing }, deadline: MonotonicClock.nanoseconds() + 1_000_000_000) { _ in }
            }
        }
    }

    /// The writing connection and what it keeps between batches. Made by `init` and sent to the
    /// writer thread, the only one that uses it from then on (a Journal is a connection for one thread).
    private struct Writer: @unchecked Sendable {
        /// Nil between closing the file and opening the path again, when that failed.
        var journal: Journal?
        let settings: JournalSettings
        let report: @Sendable (JournalNotice) -> Void
        /// Each source's lasting event as written, to start again in a new file. The writer's
        /// own: the events the recorder follows may be ahead of it by what is still queued.
        var lasting: [String: JournalEvent]
        var sinceRetention = 0
        /// The last failure said, so it is said once rather than at every batch.
        var failure: JournalError?
        var hangUps = HangUp.received.load(ordering: .relaxed)

        init(journal: Journal, settings: JournalSettings, report: @escaping @Sendable (JournalNotice) -> Void, lasting: [String: JournalEvent]) {
            self.journal = journal
            self.settings = settings
            self.report = report
            self.lasting = lasting
        }

        /// Writes `batch` in one transaction, then retention when it is due. False when another
        /// process held the journal locked past the busy timeout: nothing was written.
        mutating func write(_ batch: [Write]) -> Bool {
            var committed = false
            do throws(JournalError) {
                try reopenIfMoved()
                guard let journal else { throw .notFound(path: settings.path) }
                try journal.transaction { () throws(JournalError) in
                    for write in batch {
                        switch write {
                        case .reading(let record, let source, let time, let picture):
                            try journal.insert(record, source: source, time: time, picture: picture)
                            // The size is checked after a reading with its picture, as after an event's picture below.
                            sinceRetention = picture == nil ? sinceRetention + 1 : JournalRecorder.readingsPerRetentionCheck
                        case .change(let change, let source):
                            try journal.apply(change, source: source)
                            follow(change, source: source)
                            // A picture weighs as much as a couple of hundred readings: the size is checked after each.
                            if case .begins = change { sinceRetention = JournalRecorder.readingsPerRetentionCheck }
                        case .snapshot(let source, let time, let jpeg):
                            if try journal.keepSnapshot(source: source, time: time, picture: { jpeg }) {
                                sinceRetention = JournalRecorder.readingsPerRetentionCheck
                            }
                        }
                    }
                }
                committed = true
                if sinceRetention >= JournalRecorder.readingsPerRetentionCheck {
                    sinceRetention = 0
                    try journal.enforce(settings.retention, now: .now())
                }
                if failure != nil {
                    failure = nil
                    report(.writingAgain(path: settings.path))
                }
                return true
            } catch {
                if failure != error { report(.writeFailed(error)) }
                failure = error
                // A batch committed is never written again: a lock met by retention only puts the check off.
                if case .busy = error, !committed { return false }
                return true
            }
        }

        /// Keeps `lasting` as `change` leaves `source`'s lasting event.
        private mutating func follow(_ change: EventChange, source: String) {
            switch change {
            case .begins(let beginning):
                lasting[source] = JournalEvent(id: 0, source: source, state: beginning.state, start: beginning.start, end: nil, hasPicture: false,
                                               blockedMilliseconds: beginning.blockedMilliseconds)
            case .gapBegins(let time): lasting[source]?.blockedSince = time
            case .gapEnds: lasting[source]?.blockedSince = nil
            }
        }

        /// Opens the path again after SIGHUP, and when it no longer names the file being written
        /// (deleted, or moved away): then says so, and a new journal starts at the path with the
        /// events that last carried on. Opens it when the last attempt failed.
        private mutating func reopenIfMoved() throws(JournalError) {
            let hangUps = HangUp.received.load(ordering: .relaxed)
            let moved = journal.map { !$0.isStillAtPath } ?? false
            guard moved || hangUps != self.hangUps || journal == nil else { return }
            self.hangUps = hangUps
            if moved { report(.replaced(path: settings.path)) }
            // The old file takes its whole log and is closed before the path is opened: closing
            // the last connection to it removes its -wal and -shm by their names, which a new
            // file's would have by then.
            try? journal?.checkpoint()
            journal = nil
            Journal.removeOrphanedSideFiles(settings.path)
            let opened = try Journal(path: settings.path)
            journal = opened
            try opened.boundWriteAheadLog(maxBytes: settings.retention.maxBytes)
            // A new file has none of the lasting events: each starts again where it started, without its picture.
            let events = lasting
            try opened.transaction { () throws(JournalError) in
                for (source, event) in events.sorted(by: { $0.key < $1.key }) where try opened.lastingEvent(source: source) == nil {
                    try opened.beginEvent(source: source, state: event.state, start: event.start, picture: nil)
                    try opened.shiftBlockedTime(source: source, by: event.blockedMilliseconds)
                    if let blocked = event.blockedSince { try opened.beginGap(source: source, at: blocked) }
                }
            }
        }
    }
}
