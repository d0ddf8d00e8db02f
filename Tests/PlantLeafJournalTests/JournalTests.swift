import Foundation
import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// The journal on real SQLite files: readings read back as written, events follow their
/// hysteresis, retention keeps age and size, and files that are no journal are refused in one line.
@Suite struct JournalTests {
    static func time(_ text: String) -> JournalTime { JournalTime(iso8601: text)! }

    @Test func timesReadAndWriteAsRecordsDo() {
        let time = Self.time("2026-12-02T10:15:30.123+01:00")
        #expect(time.milliseconds == 1_796_202_930_123 && time.offsetMinutes == 60)
        #expect(time.iso8601 == "2026-12-02T10:15:30.123+01:00")
        #expect(Self.time("1969-12-31T23:59:59.500Z").iso8601 == "1969-12-31T23:59:59.500+00:00")
        #expect(JournalTime(iso8601: "2026-12-02")?.milliseconds == 1_796_169_600_000)
        #expect(JournalTime(iso8601: "2026-13-02T10:15:30Z") == nil && JournalTime(iso8601: "yesterday") == nil)
        // As cameras write their times, with any fraction, Z or an offset.
        #expect(JournalTime(iso8601: "1970-01-01T00:00:00Z")?.milliseconds == 0)
        #expect(JournalTime(iso8601: "2026-12-03T18:40:01.280+00:00")?.milliseconds == 1_796_323_201_280)
        #expect(JournalTime(iso8601: "2024-02-29T23:59:59.5-05:30")?.milliseconds == 1_709_270_999_500)
        #expect(JournalTime(iso8601: "1999-12-31T01:02:03+09:00")?.milliseconds == 946_569_723_000)
        for broken in ["", "2026-12-03T18:40:01", "2026-12-03T18:40:01+0", "2026-12-03T18:40:01+01:60", "2026-12-03T18:40:01+18:01",
                       "2026-02-31T10:00:00Z", "2026-02-29", "yesterday at noon, more or less"] {
            #expect(JournalTime(iso8601: broken) == nil, "\(broken)")
        }
    }

    @Test func readingsReadBackAsWritten() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = try Journal(path: folder + "/state/journal.sqlite")
        let first = TestRecords.reading("2026-12-02T10:15:30.123+01:00")
        let upload = ReadingRecord(verdict: .noLeaf, reason: .unlikeLeaves, top: [], secondOpinion: .skipped(reason: "no reference"),
                                   timings: .init(read: 0.5, prepare: 1, invoke: 4, postprocess: 0.25))
        try journal.insert(first, source: "/dev/video0", time: Self.time(first.time!))
        try journal.insert(upload, source: "upload", time: Self.time("2026-12-02T10:16:00Z"))
        let all = try journal.readings(Journal.Selection())
        #expect(all.map(\.source) == ["/dev/video0", "upload"])
        #expect(all.first?.record == first)
        var expectedUpload = upload
        expectedUpload.time = "2026-12-02T10:16:00.000+00:00"
        #expect(all.last?.record == expectedUpload)
        let uploads = try journal.readings(Journal.Selection(source: "upload"))
        #expect(uploads.count == 1)
        let afterFirst = try journal.readings(Journal.Selection(afterID: all[0].id, limit: 5))
        #expect(afterFirst.map(\.id) == [all[1].id])
    }

    @Test func aStateBecomesAnEventOnlyAfterHoldingNReadings() {
        var tracker = EventTracker(readingsToHold: 3)
        let blight = JournalState(verdict: .diagnosis, label: "Tomato___Early_blight", classIndex: 2)
        let healthy = JournalState(verdict: .diagnosis, label: "Tomato___healthy", classIndex: 9)
        var begun: [EventTracker.Beginning] = []
        var asked = 0
        let states = [healthy, healthy, healthy, blight, healthy, blight, blight, blight, blight]
        for (minute, state) in states.enumerated() {
            let time = JournalTime(milliseconds: Int64(minute) * 60_000, offsetMinutes: 0)
            if let beginning = tracker.observe(state, time: time, picture: { asked += 1; return [UInt8(minute)] }) { begun.append(beginning) }
        }
        // The single blight frame at minute 3 makes no event; the one that held starts at minute 5, with its frame.
        #expect(begun == [EventTracker.Beginning(state: healthy, start: JournalTime(milliseconds: 0, offsetMinutes: 0), picture: [0]),
                          EventTracker.Beginning(state: blight, start: JournalTime(milliseconds: 300_000, offsetMinutes: 0), picture: [5])])
        #expect(asked == 3 && tracker.established == blight)
    }

    @Test func theRecorderWritesEventsWithTheirPicturesAndCarriesOnAfterARestart() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let settings = JournalSettings(path: folder + "/journal.sqlite", eventReadings: 2)
        let picture = EventPicture.encode(RGBImage(width: 224, height: 224, pixels: [UInt8](repeating: 90, count: 224 * 224 * 3)))
        #expect(picture.map { $0.count <= EventPicture.maximumBytes && $0.starts(with: [0xFF, 0xD8]) } == true)
        func run(_ labels: [String], from minute: Int) throws {
            let recorder = try JournalRecorder(settings: settings) { line in Issue.record("unexpected: \(line)") }
            for (offset, label) in labels.enumerated() {
                let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute + offset) * 60_000, offsetMinutes: 60)
                recorder.record(TestRecords.reading(time.iso8601, label: label), source: "cam", time: time, makesEvents: true) { picture }
            }
        }
        try run(["Tomato___healthy", "Tomato___healthy", "Tomato___Early_blight"], from: 0)
        try run(["Tomato___Early_blight", "Tomato___Early_blight"], from: 3)
        let journal = try Journal(path: settings.path, readOnly: true)
        let events = try journal.events(Journal.Selection())
        #expect(events.map { $0.state.label } == ["Tomato___Early_blight", "Tomato___healthy"])
        // The restart forgot the first blight reading, not yet an event: the event starts at the next.
        #expect(events.first?.start.iso8601 == "2026-12-02T10:18:30.000+01:00" && events.first?.end == nil)
        #expect(events.last?.end == events.first?.start && events.allSatisfy(\.hasPicture))
        #expect(try journal.eventPicture(id: events[0].id) == picture)
        #expect(events.first?.state.isProblem == true && events.last?.state.isProblem == false)
        let older = try journal.events(Journal.Selection(afterID: events[0].id, limit: 1))
        #expect(older.map(\.id) == [events[1].id])
    }

    @Test func retentionDeletesReadingsOlderThanItsDays() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = try Journal(path: folder + "/journal.sqlite")
        let now = Self.time("2026-12-10T12:00:00Z")
        for day in 1...9 { try journal.insert(TestRecords.reading("2026-12-0\(day)T12:00:00Z"), source: "cam", time: Self.time("2026-12-0\(day)T12:00:00Z")) }
        // An upload's picture goes with its reading.
        let upload = try journal.insert(TestRecords.reading("2026-12-01T13:00:00Z"), source: "upload", time: Self.time("2026-12-01T13:00:00Z"), picture: [1, 2, 3])
        let outcome = try journal.enforce(RetentionPolicy(keepDays: 3), now: now)
        #expect(outcome.readings == 7 && outcome.pictures == 1)
        let removed = try journal.readingPicture(id: upload)
        #expect(removed == nil)
        #expect(try journal.readings(Journal.Selection()).map { $0.record.time } == ["2026-12-07T12:00:00.000+00:00", "2026-12-08T12:00:00.000+00:00", "2026-12-09T12:00:00.000+00:00"])
    }

    /// The bytes of the journal's three files: the database, its write-ahead log and the log's index.
    static func journalFilesBytes(_ path: String) -> Int64 {
        ["", "-wal", "-shm"].reduce(0) { total, suffix in
            var status = stat()
            return total + (stat(path + suffix, &status) == 0 ? Int64(status.st_size) : 0)
        }
    }

    /// --max-journal-size bounds the journal with its write-ahead log: 1 MiB, readings arriving
    /// with a picture every 50, and the three files together never over it when looked at
    /// between writes (the log alone used to grow to 4 MB).
    @Test func retentionHoldsTheJournalAndItsWriteAheadLogUnderTheSize() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let limit: Int64 = 1 << 20
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 1, retention: RetentionPolicy(maxBytes: limit))) { line in
            Issue.record("unexpected: \(line)")
        }
        let picture = [UInt8](repeating: 7, count: 20_000)
        var largest: Int64 = 0, largestLog: Int64 = 0
        for minute in 0..<20_000 {
            let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 60_000, offsetMinutes: 0)
            // A new event every 50 readings, each with a picture, as a restless plant would make.
            let label = minute / 50 % 2 == 0 ? "Tomato___healthy" : "Tomato___Early_blight"
            recorder.record(TestRecords.reading(time.iso8601, label: label), source: "cam", time: time, makesEvents: true) { picture }
            if minute % 100 == 99 {
                recorder.flush()
                largest = max(largest, Self.journalFilesBytes(path))
                var status = stat()
                if stat(path + "-wal", &status) == 0 { largestLog = max(largestLog, Int64(status.st_size)) }
            }
        }
        recorder.close()
        #expect(largest <= limit, "the journal's files took \(largest) bytes, the log \(largestLog)")
        #expect(largestLog > 0, "the log was never looked at")
        let journal = try Journal(path: path, readOnly: true)
        let kept = try journal.readings(Journal.Selection())
        // The newest readings are kept, the oldest went; the newest event keeps its picture.
        #expect(kept.last?.record.time == JournalTime(milliseconds: 1_796_202_930_000 + 19_999 * 60_000, offsetMinutes: 0).iso8601)
        // Some 30 pictures (15 events', as many of the day's strip) fit, with the readings since the oldest of them.
        let pictures = try journal.events(Journal.Selection()).filter(\.hasPicture).count
        #expect(kept.count > 500 && kept.count < 20_000, "\(kept.count) readings kept, \(pictures) pictures")
        #expect(try journal.events(Journal.Selection(limit: 1)).first?.hasPicture == true)
    }

    /// A journal of schema version 1 (before readings had pictures), made as that build made it,
    /// is migrated on opening: its readings stay, and a reading's picture can be kept.
    @Test func aVersionOneJournalIsMigratedAndKeepsReadingsPictures() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        try ForeignSQLite.execute(path, "PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE schema_version(version INTEGER NOT NULL); "
                         + JournalSchema.migrations[0] + "; INSERT INTO schema_version(version) VALUES (1); "
                         + "INSERT INTO sources(id, name) VALUES (1, 'cam'); "
                         + "INSERT INTO readings(time, utc_offset, source, verdict, top, prepare_ms, invoke_ms) VALUES (1796202930000, 0, 1, 'uncertain', x'', 1, 4)")
        #expect(Self.openingFailure(path, readOnly: true) == .failed(path: path, step: "reading",
                                                                      reason: "schema 1 needs migrating: open it once for writing (plantleaf camera or serve)"))
        let journal = try Journal(path: path)
        let old = try journal.readings(Journal.Selection())
        #expect(old.map(\.source) == ["cam"] && old.first?.hasPicture == false)
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let id = try journal.insert(TestRecords.reading("2026-12-02T10:16:00Z"), source: "upload", time: Self.time("2026-12-02T10:16:00Z"), picture: picture)
        let uploads = try journal.readings(Journal.Selection(source: "upload"))
        #expect(uploads.map(\.hasPicture) == [true])
        let kept = try journal.readingPicture(id: id), listed = try journal.readingsWithPictures(source: "upload", limit: 5)
        #expect(kept == picture && listed.map(\.id) == [id])
        let read = try Journal(path: path, readOnly: true).readingPicture(id: id)
        #expect(read == picture)
    }

    /// The error opening `path` gives, nil when it opens.
    static func openingFailure(_ path: String, readOnly: Bool = false) -> JournalError? {
        do {
            _ = try Journal(path: path, readOnly: readOnly)
            return nil
        } catch {
            return error
        }
    }

    @Test func filesThatAreNoJournalAreRefusedWithWhatTheyAre() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let damaged = folder + "/damaged.sqlite"
        try String(repeating: "not a database, just a text file that is long enough to be read as one page header\n", count: 100)
            .write(toFile: damaged, atomically: true, encoding: .utf8)
        #expect(Self.openingFailure(damaged) == .notADatabase(path: damaged))

        let newer = folder + "/newer.sqlite"
        _ = try Journal(path: newer)
        try ForeignSQLite.execute(newer, "INSERT INTO schema_version(version) VALUES (\(Journal.schemaVersion + 1))")
        #expect(Self.openingFailure(newer) == .newerSchema(path: newer, version: Journal.schemaVersion + 1))
        #expect(Self.openingFailure(newer)?.description == "journal \(newer) has schema \(Journal.schemaVersion + 1), newer than this build reads (\(Journal.schemaVersion))")

        let other = folder + "/other.sqlite"
        try ForeignSQLite.execute(other, "CREATE TABLE photos(name TEXT)")
        #expect(Self.openingFailure(other) == .notAJournal(path: other))
    }
}
