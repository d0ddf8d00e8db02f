import Foundation
import PlantLeafCore
import PlantLeafJournal
import PlantLeafServe

extension FuzzTargets {
    /// A real journal (readings of a camera and uploads, events, the day's strip, pictures), its
    /// columns overwritten with values the input picks, read through every reader: readings,
    /// events, counts, the strip, pictures, export as JSON and CSV, and serve's history, events
    /// and page. A damaged row is passed over; nothing may trap.
    public static let journalRows = FuzzTarget(
        name: "journal-rows",
        summary: "Journal readers on a real SQLite journal whose columns (every table) hold fuzzed values: extreme integers, "
            + "infinities, text of any bytes, blobs of any length, NULL, deleted rows",
        run: { bytes in
            let path = JournalFuzzing.freshJournal()
            defer { for file in [path, path + "-wal", path + "-shm"] { unlink(file) } }
            for statement in JournalFuzzing.statements(bytes) { try? ForeignSQLite.execute(path, statement) }
            JournalFuzzing.readEverything(path)
        },
        seeds: { JournalFuzzing.seeds })
}

/// The journal-rows target's pieces, public for its tests.
public enum JournalFuzzing {
    /// The tables and the columns each has, as the journal's schema makes them.
    public static let tables: [(name: String, columns: [String])] = [
        ("readings", ["id", "time", "utc_offset", "source", "verdict", "reason", "top", "leaf_likeness", "check_skipped", "frame", "age_ms", "read_ms",
                      "prepare_ms", "invoke_ms", "postprocess_ms", "generalist_ms", "capture_fps", "inference_fps", "dropped", "saved"]),
        ("events", ["id", "source", "verdict", "class", "start", "start_offset", "end", "end_offset", "blocked_ms", "blocked_since"]),
        ("snapshots", ["id", "source", "hour", "utc_offset", "jpeg"]),
        ("sources", ["id", "name"]),
        ("classes", ["id", "model_index", "label"]),
        ("pictures", ["event", "jpeg"]),
        ("reading_pictures", ["reading", "jpeg"]),
        ("reading_counts", ["source", "quarter", "verdict", "count", "first_id"]),
    ]

    /// Integers at the edges of what a column's readers compute with.
    static let extremes: [String] = ["-9223372036854775808", "9223372036854775807", "0", "-1", "1", "9e15", "-9.2e18", "253402300800000",
                                     "-62135596800001", "1439", "-1440", "4294967296", "2", "3"]

    /// The SQL the input asks for: each mutation is five bytes or more: table, column, row
    /// (0 is every row), kind of value, and the value's bytes.
    public static func statements(_ bytes: [UInt8]) -> [String] {
        var input = FuzzedSQL(bytes)
        var statements: [String] = []
        while statements.count < 16, let tableByte = input.next(), let columnByte = input.next(), let rowByte = input.next(), let kind = input.next() {
            let table = tables[Int(tableByte) % tables.count]
            let column = table.columns[Int(columnByte) % table.columns.count]
            let row = Int(rowByte) % 5
            // The counts table has no row numbers (WITHOUT ROWID): its Nth row by its key.
            let rowNumber = table.name == "reading_counts" ? "(quarter, source, verdict) IN (SELECT quarter, source, verdict FROM reading_counts LIMIT 1 OFFSET \(row - 1))"
                : "rowid = \(row)"
            let which = row == 0 ? "" : " WHERE " + rowNumber
            guard kind % 8 != 7 else {
                statements.append("DELETE FROM \(table.name)\(which)")
                continue
            }
            statements.append("UPDATE \(table.name) SET \(column) = \(input.value(kind: kind % 8, extremes: extremes))\(which)")
        }
        return statements
    }

    /// The two values of a damaged journal that overflowed, a NULL, a text of invalid UTF-8,
    /// a blob of a wrong length, a deleted source and an infinite time.
    static let seeds: [(name: String, bytes: [UInt8])] = [
        ("utc-offset-9e15", [0, 2, 2, 1, 5]),
        ("event-start-minus-9.2e18", [1, 4, 1, 1, 6]),
        ("null-reason", [0, 5, 1, 0]),
        ("verdict-not-utf8", [0, 4, 3, 5, 3, 0xff, 0xfe, 0x80]),
        ("top-of-5-bytes", [0, 6, 1, 6, 5, 1, 2, 3, 4, 5]),
        ("source-deleted", [3, 0, 1, 7]),
        ("time-infinite", [0, 1, 0, 4, 0, 2, 4, 3, 1]),
        ("snapshot-hour-extreme", [2, 2, 1, 1, 1, 4, 3, 1, 1, 0]),
    ]

    /// The journal each run starts from.
    private static let template = FuzzedFileTemplate(name: "journal") { path in
        // Closed when this closure returns, its write-ahead log checkpointed into the file.
        let journal = try Journal(path: path)
        var follower = EventFollower(readingsToHold: 1)
        let picture: [UInt8] = [0xff, 0xd8, 0xff, 0xd9]
        for (minute, label) in ["Tomato___healthy", "Tomato___Early_blight", "Tomato___healthy", "Apple___Apple_scab"].enumerated() {
            let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 3_600_000, offsetMinutes: 60)
            let record = ReadingRecord(frame: minute, time: time.iso8601, verdict: minute == 3 ? .uncertain : .diagnosis, reason: minute == 3 ? .lowScore : nil,
                                       top: [ScoredClass(index: minute, label: label, score: 0.875), ScoredClass(index: 9, label: "Tomato___Late_blight", score: 0.125)],
                                       secondOpinion: minute == 2 ? .skipped(reason: "no reference") : .leafLikeness(0.5), ageMilliseconds: 41.25,
                                       timings: .init(read: 0.5, prepare: 0.75, invoke: 4.5, postprocess: 0.25, generalist: 2.25),
                                       captureFramesPerSecond: 29.5, inferenceFramesPerSecond: 14.75, dropped: 2, saved: "frames/\(minute).jpg")
            try journal.insert(record, source: "camera", time: time)
            _ = try follower.follow(record, source: "camera", time: time, in: journal) { picture }
            try journal.keepSnapshot(source: "camera", time: time) { picture }
            try journal.insert(record, source: "upload", time: time, picture: picture)
        }
    }

    static func freshJournal() -> String { template.freshCopy() }

    /// Every reader of the journal at `path`, as export, events and serve use them.
    public static func readEverything(_ path: String) {
        guard let journal = try? Journal(path: path, readOnly: true) else { return }
        let now = JournalTime(milliseconds: 1_796_220_000_000, offsetMinutes: 60)
        if let readings = try? journal.readings(Journal.Selection()) {
            for reading in readings {
                _ = JournalJSON.reading(reading, linkingPicture: true)
                _ = JournalJSON.csvRow(reading)
            }
        }
        if let events = try? journal.events(Journal.Selection()) {
            for event in events { _ = JournalJSON.event(event, now: now) }
        }
        _ = try? journal.verdictCounts(Journal.Selection(), periodMilliseconds: 86_400_000, offsetMinutes: 60)
        _ = try? journal.verdictCounts(Journal.Selection(since: JournalTime(milliseconds: 0, offsetMinutes: 0)), periodMilliseconds: 3_600_000, offsetMinutes: -600)
        for source in (try? journal.sourceNames()) ?? [] {
            _ = try? journal.strip(source: source, since: JournalTime(milliseconds: 0, offsetMinutes: 0))
            _ = try? journal.readingsWithPictures(source: source, limit: 10)
            _ = try? journal.lastingEvent(source: source)
        }
        for id in Int64(0)...5 {
            for picture in JournalPicture.allCases { _ = try? picture.jpeg(id: id, in: journal) }
        }
        _ = try? ServeFuzzing.journalAnswers(journal, now: now)
        _ = journal.takeDamagedRows()
    }
}
