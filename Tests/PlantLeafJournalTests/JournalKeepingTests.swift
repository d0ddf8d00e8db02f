import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Synchronization
import Testing

/// The journal kept while readings go on, on real SQLite files: a blocked view is a gap in the
/// event, not its end; a reader sees sources a writer added after it; another connection holding
/// the write lock holds up only the journal's writer; a journal deleted or moved starts anew at
/// its path; and the counts per day kept as readings are written add up as the readings do.
@Suite struct JournalKeepingTests {
    static let blight = "Tomato___Early_blight", healthy = "Tomato___healthy"

    static func time(minute: Int) -> JournalTime { JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 60_000, offsetMinutes: 60) }

    /// A camera reading at `minute`: a diagnosis of `label`, or `verdict` (no leaf, no picture) with no class.
    static func reading(minute: Int, label: String = blight, verdict: Verdict = .diagnosis) -> ReadingRecord {
        TestRecords.reading(time(minute: minute).iso8601, verdict: verdict, label: label)
    }

    /// The notices a recorder says, kept for the test to look at.
    final class Notices: Sendable {
        let said = Mutex<[JournalNotice]>([])
        var all: [JournalNotice] { said.withLock { $0 } }
        func report(_ notice: JournalNotice) { said.withLock { $0.append(notice) } }
    }

    /// Blight for 6 minutes, a cat (no leaf) and a dark frame (no picture) for 4, blight again,
    /// then healthy: one blight event from minute 0 with 4 minutes of blocked view, ended only
    /// when healthy held for N = 3 readings of the leaf seen (a no-picture reading in between
    /// neither counts nor breaks them). The problem sensor's state stays on through the gap.
    @Test func aBlockedViewIsAGapInTheEventNotItsEnd() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let notices = Notices()
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 3), report: notices.report)
        let plan: [(label: String, verdict: Verdict)] = Array(repeating: (Self.blight, .diagnosis), count: 6)
            + [(Self.blight, .noLeaf), (Self.blight, .noLeaf), (Self.blight, .noPicture), (Self.blight, .noLeaf)]
            + Array(repeating: (Self.blight, .diagnosis), count: 3)
            + [(Self.healthy, .diagnosis), (Self.healthy, .diagnosis), (Self.blight, .noPicture), (Self.healthy, .diagnosis)]
        var statuses: [JournalRecorder.EventStatus?] = []
        for (minute, step) in plan.enumerated() {
            statuses.append(recorder.record(Self.reading(minute: minute, label: step.label, verdict: step.verdict), source: "cam",
                                            time: Self.time(minute: minute), makesEvents: true) { [UInt8(minute)] })
        }
        recorder.close()
        #expect(notices.all.isEmpty, "\(notices.all)")
        // The problem holds from the third reading; through the blocked view it stays, said blocked.
        #expect(statuses[2]?.established?.label == Self.blight && statuses[2]?.viewBlocked == false)
        #expect((6...9).allSatisfy { statuses[$0]?.established?.label == Self.blight && statuses[$0]?.viewBlocked == true })
        #expect(statuses[10]?.established?.isProblem == true && statuses[10]?.viewBlocked == false)
        #expect(statuses[15]?.established?.isProblem == true && statuses[16]?.established?.label == Self.healthy)
        let events = try Journal(path: path, readOnly: true).events(Journal.Selection())
        #expect(events.map(\.state.label) == [Self.healthy, Self.blight], "\(events)")
        let blight = try #require(events.last)
        #expect(blight.start == Self.time(minute: 0) && blight.end == Self.time(minute: 13))
        #expect(blight.blockedMilliseconds == 4 * 60_000 && blight.blockedSince == nil)
        #expect(JournalJSON.event(blight, now: Self.time(minute: 20)).contains("\"blocked_s\": 240, \"view_blocked\": false"))
        // The dark frame at minute 15 is the healthy event's blocked view: that event began at minute 13.
        #expect(events.first?.start == Self.time(minute: 13) && events.first?.blockedMilliseconds == 60_000)
    }

    /// A camera restarted while the view is blocked carries on with the gap, and a view that is
    /// blocked now is said so.
    @Test func aGapGoesOnAcrossARestart() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let settings = JournalSettings(path: folder + "/journal.sqlite", eventReadings: 2)
        let first = try JournalRecorder(settings: settings) { Issue.record("unexpected: \($0)") }
        for minute in 0..<3 { first.record(Self.reading(minute: minute), source: "cam", time: Self.time(minute: minute), makesEvents: true) { nil } }
        first.record(Self.reading(minute: 3, verdict: .noLeaf), source: "cam", time: Self.time(minute: 3), makesEvents: true) { nil }
        first.close()
        let second = try JournalRecorder(settings: settings) { Issue.record("unexpected: \($0)") }
        let status = second.record(Self.reading(minute: 5, verdict: .noPicture), source: "cam", time: Self.time(minute: 5), makesEvents: true) { nil }
        #expect(status?.established == JournalState(verdict: .diagnosis, label: Self.blight, classIndex: 2) && status?.viewBlocked == true)
        second.close()
        let lasting = try #require(try Journal(path: settings.path, readOnly: true).lastingEvent(source: "cam"))
        #expect(lasting.viewBlockedNow && lasting.blockedSince == Self.time(minute: 3))
        #expect(lasting.blockedMilliseconds(now: Self.time(minute: 10)) == 7 * 60_000)
        #expect(JournalJSON.event(lasting, now: Self.time(minute: 10)).contains("\"blocked_s\": 420, \"view_blocked\": true"))
    }

    /// A reading connection that has read once learns the sources and classes a writer adds after.
    @Test func aReaderSeesSourcesAndClassesAddedAfterItsFirstRead() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let writer = try Journal(path: path)
        try writer.insert(Self.reading(minute: 0), source: "/dev/video0", time: Self.time(minute: 0))
        let reader = try Journal(path: path, readOnly: true)
        #expect(try reader.readings(Journal.Selection()).map(\.source) == ["/dev/video0"])
        #expect(try reader.sourceNames() == ["/dev/video0"])
        try writer.insert(Self.reading(minute: 1, label: "Grape___Black_rot"), source: "upload", time: Self.time(minute: 1))
        try writer.beginEvent(source: "upload", state: JournalState(verdict: .diagnosis, label: "Grape___Black_rot", classIndex: 2),
                              start: Self.time(minute: 1), picture: nil)
        let readings = try reader.readings(Journal.Selection())
        #expect(readings.map(\.source) == ["/dev/video0", "upload"])
        #expect(readings.last?.record.top.first?.label == "Grape___Black_rot")
        #expect(try reader.readings(Journal.Selection(source: "upload")).count == 1)
        #expect(try reader.events(Journal.Selection()).map(\.source) == ["upload"])
        #expect(try reader.sourceNames() == ["/dev/video0", "upload"])
    }

    /// Another connection holds the write lock (BEGIN IMMEDIATE) while 40 readings come: each
    /// is recorded at once with its event's state, none is written while the lock is held, and
    /// all land in order once it is let go.
    @Test func aLockHeldElsewhereHoldsUpOnlyTheWriter() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let notices = Notices()
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 3), report: notices.report)
        let holder = try Journal(path: path), looker = try Journal(path: path, readOnly: true)
        var statuses: [JournalRecorder.EventStatus?] = []
        try holder.transaction { () throws(JournalError) in
            for minute in 0..<40 {
                statuses.append(recorder.record(Self.reading(minute: minute), source: "cam", time: Self.time(minute: minute), makesEvents: true) { nil })
            }
            #expect(try looker.readingCount() == 0)
        }
        #expect(statuses.count == 40 && statuses[1]?.established == nil && statuses[2]?.established?.label == Self.blight)
        recorder.flush()
        let written = try looker.readings(Journal.Selection())
        #expect(written.map(\.record.time) == (0..<40).map { Self.time(minute: $0).iso8601 })
        #expect(try looker.events(Journal.Selection()).map(\.start) == [Self.time(minute: 0)])
        // Past the busy timeout (a slow machine), the wait is said and so is its end; nothing else.
        #expect(notices.all.allSatisfy { $0 == .writeFailed(.busy(path: path)) || $0 == .writingAgain(path: path) }, "\(notices.all)")
        recorder.close()
    }

    /// The queue holds 10 readings: with the lock held, 25 come; the first 10 are kept, the 15
    /// others are counted and said in one line when the writer catches up, after the one that
    /// said it fell behind. The event's change is never left out.
    @Test func whatOverflowsTheQueueIsCountedAndSaid() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let notices = Notices()
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 1), queueReadings: 10, report: notices.report)
        let holder = try Journal(path: path)
        try holder.transaction { () throws(JournalError) in
            for minute in 0..<25 {
                let label = minute < 20 ? Self.blight : Self.healthy
                recorder.record(Self.reading(minute: minute, label: label), source: "cam", time: Self.time(minute: minute), makesEvents: true) { nil }
            }
        }
        recorder.close()
        let journal = try Journal(path: path, readOnly: true)
        #expect(try journal.readings(Journal.Selection()).map(\.record.time) == (0..<10).map { Self.time(minute: $0).iso8601 })
        #expect(try journal.events(Journal.Selection()).map(\.state.label) == [Self.healthy, Self.blight])
        let said = notices.all.filter { $0 != .writeFailed(.busy(path: path)) && $0 != .writingAgain(path: path) }
        #expect(said == [.fallingBehind(path: path), .caughtUp(path: path, count: 15)], "\(notices.all)")
    }

    /// The journal deleted while written: the next write says so and starts a new one at the
    /// path, carrying the lasting event on. Moved away: the moved file keeps every reading
    /// written to it (its log checkpointed in), and the path starts anew again.
    @Test func aJournalDeletedOrMovedStartsAnewAtItsPath() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite", moved = folder + "/moved.sqlite"
        let notices = Notices()
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 1), report: notices.report)
        func record(_ minutes: Range<Int>) {
            for minute in minutes { recorder.record(Self.reading(minute: minute), source: "cam", time: Self.time(minute: minute), makesEvents: true) { nil } }
            recorder.flush()
        }
        record(0..<5)
        unlink(path)
        record(5..<8)
        #expect(notices.all == [.replaced(path: path)])
        let anew = try Journal(path: path, readOnly: true)
        #expect(try anew.readingCount() == 3)
        #expect(try anew.lastingEvent(source: "cam")?.start == Self.time(minute: 0))
        rename(path, moved)
        record(8..<10)
        #expect(notices.all == [.replaced(path: path), .replaced(path: path)])
        recorder.close()
        #expect(try Journal(path: moved, readOnly: true).readingCount() == 3)
        #expect(try Journal(path: path, readOnly: true).readingCount() == 2)
        // The recorder's reading connection follows the path too.
        let reader = try JournalRecorder(settings: JournalSettings(path: path)) { Issue.record("unexpected: \($0)") }
        #expect(try reader.read { (journal: Journal) throws(JournalError) in try journal.readingCount() } == 2)
        rename(path, moved)
        _ = try Journal(path: path)
        #expect(try reader.read { (journal: Journal) throws(JournalError) in try journal.readingCount() } == 0)
    }

    /// The counts per period kept as readings are written (and deleted) equal the readings'
    /// own, whatever the selection's ends, the period, the offset (whole hours, +05:30, +05:45)
    /// and the source, and a page of readings from a time on is the one their filter gives; a
    /// journal of version 2 has its counts made when migrated.
    @Test func countsKeptAsReadingsAreWrittenAddUpAsTheReadingsDo() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        // Version 2 as that build made it, with readings in it.
        try ForeignSQLite.execute(path, "PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE schema_version(version INTEGER NOT NULL); "
                                  + JournalSchema.migrations[0] + ";" + JournalSchema.migrations[1] + "; INSERT INTO schema_version(version) VALUES (1), (2); "
                                  + "INSERT INTO sources(id, name) VALUES (1, 'old'); "
                                  + "INSERT INTO readings(time, utc_offset, source, verdict, top, prepare_ms, invoke_ms) VALUES "
                                  + "(1796202930000, 0, 1, 'uncertain', x'', 1, 4), (1796202990000, 0, 1, 'no-leaf', x'', 1, 4)")
        let journal = try Journal(path: path)
        let migrated = try journal.verdictCounts(Journal.Selection(source: "old"), periodMilliseconds: 86_400_000, offsetMinutes: 0)
        #expect(migrated.map(\.counts) == [[.uncertain: 1, .noLeaf: 1]])
        var generator = SystemRandomNumberGenerator()
        let verdicts: [Verdict] = [.diagnosis, .uncertain, .noLeaf, .noPicture]
        let start: Int64 = 1_796_202_930_000
        for _ in 0..<3_000 {
            let time = JournalTime(milliseconds: start + Int64.random(in: 0..<(20 * 86_400_000), using: &generator), offsetMinutes: 0)
            let verdict = verdicts.randomElement(using: &generator)!
            try journal.insert(TestRecords.reading(time.iso8601, verdict: verdict), source: Bool.random(using: &generator) ? "cam" : "upload", time: time)
        }
        // Retention takes the counts of what it deletes with it.
        try journal.enforce(RetentionPolicy(keepDays: 15), now: JournalTime(milliseconds: start + 20 * 86_400_000, offsetMinutes: 0))
        let all = try journal.readings(Journal.Selection())
        #expect(all.count > 2_000)
        for _ in 0..<40 {
            let since = Bool.random(using: &generator) ? nil : JournalTime(milliseconds: start + Int64.random(in: 0..<(20 * 86_400_000), using: &generator), offsetMinutes: 0)
            let until = Bool.random(using: &generator) ? nil : JournalTime(milliseconds: start + Int64.random(in: 0..<(21 * 86_400_000), using: &generator), offsetMinutes: 0)
            let source = [nil, "cam", "upload", "old"].randomElement(using: &generator)!
            let offset = [0, 60, -300, 330, 345, 7].randomElement(using: &generator)!
            let period = ([86_400_000, 7 * 86_400_000, 3_600_000] as [Int64]).randomElement(using: &generator)!
            let selection = Journal.Selection(since: since, until: until, source: source)
            let counted = try journal.verdictCounts(selection, periodMilliseconds: period, offsetMinutes: offset)
            var expected: [Int64: [Verdict: Int]] = [:]
            for reading in all where (since.map { reading.time.milliseconds >= $0.milliseconds } ?? true)
                && (until.map { reading.time.milliseconds < $0.milliseconds } ?? true) && (source.map { reading.source == $0 } ?? true) {
                let local = reading.time.milliseconds + Int64(offset) * 60_000
                expected[(local / period) * period - Int64(offset) * 60_000, default: [:]][reading.record.verdict, default: 0] += 1
            }
            #expect(counted.map(\.periodStart.milliseconds) == expected.keys.sorted(), "\(selection) \(offset) \(period)")
            #expect(counted.allSatisfy { expected[$0.periodStart.milliseconds] == $0.counts }, "\(selection) \(offset) \(period)")
            // A page of the readings themselves, in row order, though rows were written in no order of time.
            var page = selection
            page.limit = 50
            let listed = try journal.readings(page).map(\.id)
            let selected = all.filter { reading in (since.map { reading.time.milliseconds >= $0.milliseconds } ?? true)
                && (until.map { reading.time.milliseconds < $0.milliseconds } ?? true) && (source.map { reading.source == $0 } ?? true) }
            #expect(listed == Array(selected.prefix(50).map(\.id)), "\(selection)")
        }
    }
}
