import Foundation
import PlantLeafCore
import PlantLeafJournal
import PlantLeafServe
import PlantLeafTestSupport
import Synchronization
import Testing

/// A damaged or hand-edited journal: a value a column cannot hold passes its row over, named in
/// one notice, and every other row still reads.
@Suite struct JournalDamageTests {
    /// A journal of three readings a minute apart and the events they made, at `path`.
    static func journal(_ path: String) throws -> Journal {
        let journal = try Journal(path: path)
        var follower = EventFollower(readingsToHold: 1)
        for (minute, label) in ["Tomato___healthy", "Tomato___Early_blight", "Tomato___healthy"].enumerated() {
            let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 60_000, offsetMinutes: 60)
            let record = TestRecords.reading(time.iso8601, label: label)
            try journal.insert(record, source: "greenhouse", time: time)
            _ = try follower.follow(record, source: "greenhouse", time: time, in: journal) { nil }
        }
        return journal
    }

    /// The two values that made `journal export`, `journal events` and serve's /history die of
    /// arithmetic overflow: a reading's offset of 9e15 minutes, an event's start at -9.2e18 ms.
    @Test func theOffsetAndStartThatOverflowedPassTheirRowsOver() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        _ = try Self.journal(path)
        try ForeignSQLite.execute(path, "UPDATE readings SET utc_offset = 9e15 WHERE id = 2; UPDATE events SET start = -9.2e18 WHERE id = 1")

        let journal = try Journal(path: path, readOnly: true)
        let readings = try journal.readings(Journal.Selection())
        #expect(readings.map(\.id) == [1, 3])
        #expect(journal.takeDamagedRows() == [JournalDamagedRow(table: "readings", id: 2, column: "utc_offset", value: "9000000000000000")])
        // Said once a row, however often it is read again.
        _ = try journal.readings(Journal.Selection())
        #expect(journal.takeDamagedRows().isEmpty)

        let events = try journal.events(Journal.Selection())
        #expect(events.map(\.id) == [3, 2])
        #expect(journal.takeDamagedRows() == [JournalDamagedRow(table: "events", id: 1, column: "start", value: "-9200000000000000000")])
        for event in events { _ = JournalJSON.event(event, now: .now()) }

        // The counts read the time and verdict alone, both of them sound here; the page of
        // readings goes on past the damaged row.
        let counts = try journal.verdictCounts(Journal.Selection(), periodMilliseconds: 86_400_000, offsetMinutes: 60)
        #expect(counts.map { $0.counts[.diagnosis] } == [3])
        let page = try journal.readingPage(Journal.Selection(limit: 2))
        #expect(page.rows.map(\.id) == [1] && page.nextAfter == 2)
    }

    /// Serve's first GET /history, /api/history and /api/events on such a journal: answered,
    /// each damaged row said once through the recorder's notices, however often the page is read.
    @Test func serveAnswersAndSaysEachDamagedRowOnce() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        _ = try Self.journal(path)
        try ForeignSQLite.execute(path, "UPDATE readings SET utc_offset = 9e15 WHERE id = 2; UPDATE events SET start = -9.2e18 WHERE id = 1")
        let notices = Notices()
        let recorder = try JournalRecorder(settings: JournalSettings(path: path)) { notices.add($0) }
        let now = JournalTime(milliseconds: 1_796_220_000_000, offsetMinutes: 60)
        for _ in 0..<2 {
            let answers = try recorder.read { (journal: Journal) throws(JournalError) in try ServeFuzzing.journalAnswers(journal, now: now) }
            #expect(answers[0].contains(#""id": 3,"#) && !answers[0].contains(#""id": 2,"#))
        }
        #expect(notices.all == [.rowPassedOver(path: path, row: JournalDamagedRow(table: "readings", id: 2, column: "utc_offset", value: "9000000000000000")),
                                .rowPassedOver(path: path, row: JournalDamagedRow(table: "events", id: 1, column: "start", value: "-9200000000000000000"))])
    }

    final class Notices: Sendable {
        private let notices = Mutex<[JournalNotice]>([])
        func add(_ notice: JournalNotice) { notices.withLock { $0.append(notice) } }
        var all: [JournalNotice] { notices.withLock { $0 } }
    }

    /// Each check the row decoder makes, one column of one table at a time.
    @Test func eachColumnIsCheckedAgainstWhatItCanHold() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let cases: [(sql: String, table: String, id: Int64, column: String, value: String)] = [
            ("UPDATE readings SET time = 253402300800000 WHERE id = 1", "readings", 1, "time", "253402300800000"),
            ("UPDATE readings SET verdict = 'fine' WHERE id = 1", "readings", 1, "verdict", "'fine'"),
            ("UPDATE readings SET reason = 'because' WHERE id = 1", "readings", 1, "reason", "'because'"),
            ("UPDATE readings SET top = x'0102030405' WHERE id = 1", "readings", 1, "top", "a blob of 5 bytes"),
            ("UPDATE readings SET frame = -1 WHERE id = 1", "readings", 1, "frame", "-1"),
            ("UPDATE readings SET prepare_ms = 'slow' WHERE id = 1", "readings", 1, "prepare_ms", "'slow'"),
            ("UPDATE readings SET saved = x'00' WHERE id = 1", "readings", 1, "saved", "a blob of 1 bytes"),
        ]
        for (number, damage) in cases.enumerated() {
            let path = folder + "/journal-\(number).sqlite"
            _ = try Self.journal(path)
            try ForeignSQLite.execute(path, damage.sql)
            let journal = try Journal(path: path, readOnly: true)
            #expect(try journal.readings(Journal.Selection()).map(\.id) == [2, 3], "\(damage.sql)")
            #expect(journal.takeDamagedRows() == [JournalDamagedRow(table: damage.table, id: damage.id, column: damage.column, value: damage.value)])
        }
    }
}

/// The journal-rows fuzz target's seeds write the values they are named for (FuzzSeedTests runs
/// them through the target).
@Suite struct JournalFuzzSeedTests {
    @Test func theSeedsWriteTheValuesTheyAreNamedFor() {
        let seeds = Dictionary(uniqueKeysWithValues: FuzzTargets.journalRows.seeds().map { ($0.name, $0.bytes) })
        #expect(JournalFuzzing.statements(seeds["utc-offset-9e15"]!) == ["UPDATE readings SET utc_offset = 9e15 WHERE rowid = 2"])
        #expect(JournalFuzzing.statements(seeds["event-start-minus-9.2e18"]!) == ["UPDATE events SET start = -9.2e18 WHERE rowid = 1"])
        #expect(JournalFuzzing.statements(seeds["top-of-5-bytes"]!) == ["UPDATE readings SET top = x'0102030405' WHERE rowid = 1"])
        #expect(JournalFuzzing.statements(seeds["source-deleted"]!) == ["DELETE FROM sources WHERE rowid = 1"])
    }
}
