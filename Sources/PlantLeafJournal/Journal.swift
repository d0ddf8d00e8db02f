import Glibc
import PlantLeafCore

/// The greenhouse journal: every reading of every camera and upload, and the events they make,
/// in one SQLite file with a write-ahead log, so one process writes while others read.
///
/// One connection: use it from one thread at a time (`JournalRecorder` shares one between the
/// camera and the server's threads).
public final class Journal {
    /// The schema version this build writes; a journal of an older one is migrated on opening.
    public static var schemaVersion: Int { JournalSchema.currentVersion }

    public var path: String { database.path }
    let database: SQLiteDatabase
    /// The classes and sources tables, held in memory: a reading names them by number.
    private var classIDs: [ClassKey: Int64] = [:]
    private var classes: [Int64: ClassKey] = [:]
    private var sourceIDs: [String: Int64] = [:]
    private var sources: [Int64: String] = [:]
    /// Each source's hour of its newest snapshot, so that a reading asks the file only once an hour.
    private var snapshotHours: [String: Int64] = [:]
    /// Rows the readers passed over and not yet taken (`takeDamagedRows`); each row is said once
    /// for the life of the connection, however often a page reads it.
    private var damagedRows: [JournalDamagedRow] = []
    private var damagedRowsSaid: Set<String> = []
    /// The file this connection opened (device and inode), to notice the path naming another.
    private(set) var identity: FileIdentity?

    private struct ClassKey: Hashable {
        var index: Int
        var label: String
    }

    /// Opens the journal at `path`, made (with the folders it needs) when it is not there unless
    /// `readOnly`, and migrated to this build's schema when older.
    ///
    /// - Throws: `JournalError`: `.notFound` (a reader's), `.notARegularFile`, `.notADatabase`, `.notAJournal`, `.newerSchema`, `.readOnly`
    ///   (a writer on a file it cannot write), `.diskFull`, `.libraryMissing`.
    public init(path: String, readOnly: Bool = false) throws(JournalError) {
        try Journal.checkKind(path)
        if !readOnly {
            // The default path's folders ($XDG_STATE_HOME/plantleaf) may not exist yet; a folder
            // that cannot be made is said by the open that follows.
            var folder = ""
            for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() where !component.isEmpty {
                folder += "/" + component
                mkdir(path.hasPrefix("/") ? folder : String(folder.dropFirst()), 0o755)
            }
        }
        // SQLite's own word for it would be "unable to open database file".
        if readOnly && access(path, F_OK) != 0 && errno == ENOENT { throw .notFound(path: path) }
        database = try SQLiteDatabase(path: path, readOnly: readOnly, create: !readOnly)
        let tables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'", step: "reading the schema")
        let hasVersion = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
                                              step: "reading the schema") > 0
        if tables > 0 && !hasVersion { throw .notAJournal(path: path) }
        let version = hasVersion ? Int(try database.integer("SELECT max(version) FROM schema_version", step: "reading the schema version")) : 0
        if version > Journal.schemaVersion { throw .newerSchema(path: path, version: version) }
        if !readOnly {
            if tables == 0 {
                // Before the first table: afterwards SQLite no longer changes it. Incremental
                // vacuum gives the pages retention frees back to the file system.
                try database.execute("PRAGMA auto_vacuum = INCREMENTAL", step: "creating the journal")
            }
            try database.execute("PRAGMA journal_mode = WAL", step: "setting the write-ahead log")
            // Committed readings survive the process being killed; a power cut may lose the last
            // few (the --log file, synced every line, is the record that survives that too).
            try database.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304", step: "setting the write-ahead log")
            try database.transaction(step: "migrating the schema") { () throws(JournalError) in
                if version == 0 { try database.execute("CREATE TABLE schema_version(version INTEGER NOT NULL)", step: "creating the journal") }
                for next in version..<Journal.schemaVersion {
                    try database.execute(JournalSchema.migrations[next], step: "migrating the schema to version \(next + 1)")
                    try database.query("INSERT INTO schema_version(version) VALUES (?)", [.integer(Int64(next + 1))], step: "migrating the schema")
                }
            }
        } else if version < Journal.schemaVersion {
            throw .failed(path: path, step: "reading", reason: "schema \(version) needs migrating: open it once for writing (plantleaf camera or serve)")
        }
        try loadClasses()
        try loadSources()
        identity = Journal.fileIdentity(path)
    }

    private func loadClasses() throws(JournalError) {
        try database.query("SELECT \(Journal.classColumns.list()) FROM classes", step: "reading the classes") { row in
            guard let values = checked(row, Journal.classColumns), let id = values[0].integer, let index = values[1].integer,
                  let label = values[2].text else { return }
            let key = ClassKey(index: Int(index), label: label)
            classIDs[key] = id
            classes[id] = key
        }
    }

    private func loadSources() throws(JournalError) {
        try database.query("SELECT \(Journal.sourceColumns.list()) FROM sources", step: "reading the sources") { row in
            guard let values = checked(row, Journal.sourceColumns), let id = values[0].integer, let name = values[1].text else { return }
            sourceIDs[name] = id
            sources[id] = name
        }
    }

    /// Source `id`'s name. Another connection (the writer, when this is a reader) adds sources,
    /// so a number this connection has not seen has the table read again; "?" when not there either.
    func sourceName(_ id: Int64) -> String {
        if let name = sources[id] { return name }
        try? loadSources()
        return sources[id] ?? "?"
    }

    /// Class `id`, read again from the table when this connection has not seen it, as sources are.
    private func classKey(_ id: Int64) -> ClassKey? {
        if let key = classes[id] { return key }
        try? loadClasses()
        return classes[id]
    }

    /// Refuses a path that names something other than a regular file (a new path is made): a
    /// reader would wait on a FIFO for a writer forever, and SQLite would take /dev/null for an
    /// empty database and leave its side files (-journal, -wal) beside it in /dev.
    private static func checkKind(_ path: String) throws(JournalError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path, mode: status.st_mode) }
    }

    // MARK: Rows as the readers check them

    static let classColumns = JournalColumns("classes", [.id(), JournalColumn("model_index", .integer(-1 ... .max)), JournalColumn("label", .text)])
    static let sourceColumns = JournalColumns("sources", [.id(), JournalColumn("name", .text)])
    /// A reading's row: the journal's own columns (when and where from), then a column for each
    /// member of the record the journal keeps (`ReadingRecord.fields`).
    static let readingColumns = JournalColumns("readings", [.id(), .time("time"), .offset("utc_offset"), .id("source")]
                                                + ReadingRecord.fields.compactMap(JournalColumn.init))
    /// The record's members the journal keeps, in the order of their columns in `readingColumns`.
    static let keptFields = ReadingRecord.fields.filter { JournalColumn($0) != nil }
    static let insertReading = "INSERT INTO readings(\(readingColumns.columns.dropFirst().map(\.name).joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: readingColumns.columns.count - 1).joined(separator: ", ") + ")"
    static let eventColumns = JournalColumns("events", [.id(), .id("source"), .verdict, .id("class", nullable: true), .time("start"),
                                                        .offset("start_offset"), .time("end", nullable: true), .offset("end_offset", nullable: true),
                                                        JournalColumn("blocked_ms", .integer(0 ... .max)), .time("blocked_since", nullable: true)])
    static let snapshotColumns = JournalColumns("snapshots", [.id(), JournalColumn("hour", .integer(JournalTime.millisecondsRange.lowerBound / hourMilliseconds
                                                                                                       ... JournalTime.millisecondsRange.upperBound / hourMilliseconds)),
                                                              .offset("utc_offset")])
    /// The bytes a class takes in a reading's packed "top": its number (UInt32) and score (Float32).
    static let packedClassBytes = 8

    /// The row's values when each is what its column can hold; otherwise nil, and the row is
    /// kept to be said (`takeDamagedRows`).
    private func checked(_ row: SQLiteRow, _ columns: JournalColumns) -> [SQLiteValue]? {
        switch columns.values(row) {
        case .success(let values): return values
        case .failure(let damage):
            passOver(damage)
            return nil
        }
    }

    private func passOver(_ damage: JournalDamagedRow) {
        if damagedRowsSaid.insert("\(damage.table) \(damage.id)").inserted { damagedRows.append(damage) }
    }

    /// The rows the readers passed over since the last call, each once: a damaged or hand-edited
    /// journal's, whose front ends say each in one line.
    public func takeDamagedRows() -> [JournalDamagedRow] {
        defer { damagedRows.removeAll() }
        return damagedRows
    }

    /// The journal's path without options: `$XDG_STATE_HOME/plantleaf/journal.sqlite`, XDG's
    /// default for it `~/.local/state`; nil when neither variable is set.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/plantleaf/journal.sqlite" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/plantleaf/journal.sqlite" }
        return nil
    }

    /// Runs `body` in one transaction (an import's many readings commit together).
    public func transaction<Result>(_ body: () throws(JournalError) -> Result) throws(JournalError) -> Result {
        try database.transaction(step: "writing", body)
    }

    // MARK: Readings

    /// Writes one reading, and `picture` (JPEG) as its picture when given; returns its row number.
    @discardableResult
    public func insert(_ record: ReadingRecord, source: String, time: JournalTime, picture: [UInt8]? = nil) throws(JournalError) -> Int64 {
        var values: [SQLiteValue] = [.integer(time.milliseconds), .integer(Int64(time.offsetMinutes)), .integer(try sourceID(source))]
        for field in Journal.keptFields {
            // Words are not kept: the fields' column list has none.
            switch field.value(record, .english) {
            case nil, .null?: values.append(.null)
            case .integer(let number)?: values.append(.integer(Int64(number)))
            case .real(let number)?: values.append(.real(number))
            case .text(let text)?: values.append(.text(text))
            case .classes(let classes)?: values.append(.blob(try packed(classes)))
            }
        }
        try database.query(Journal.insertReading, values, step: "writing a reading")
        let id = try database.integer("SELECT last_insert_rowid()", step: "writing a reading")
        if let picture {
            try database.query("INSERT INTO reading_pictures(reading, jpeg) VALUES (?, ?)", [.integer(id), .blob(picture)], step: "writing a reading's picture")
        }
        return id
    }

    /// The classes as a reading's "top" column keeps them: each its number in the classes table
    /// and its score, little-endian.
    private func packed(_ classes: [ScoredClass]) throws(JournalError) -> [UInt8] {
        var top: [UInt8] = []
        top.reserveCapacity(classes.count * Journal.packedClassBytes)
        for scored in classes {
            let id = try classID(index: scored.index, label: scored.label)
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: id).littleEndian) { top += $0 }
            withUnsafeBytes(of: Float(scored.score).bitPattern.littleEndian) { top += $0 }
        }
        return top
    }

    private func unpacked(_ packed: [UInt8]) -> [ScoredClass] {
        stride(from: 0, to: packed.count - packed.count % Journal.packedClassBytes, by: Journal.packedClassBytes).map { start in
            let id = packed[start..<start + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let bits = packed[start + 4..<start + 8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let key = classKey(Int64(id)) ?? ClassKey(index: -1, label: "?")
            return ScoredClass(index: key.index, label: key.label, score: Double(Float(bitPattern: bits)))
        }
    }

    private func classID(index: Int, label: String) throws(JournalError) -> Int64 {
        let key = ClassKey(index: index, label: label)
        if let id = classIDs[key] { return id }
        try database.query("INSERT OR IGNORE INTO classes(model_index, label) VALUES (?, ?)", [.integer(Int64(index)), .text(label)], step: "writing a class")
        let id = try database.integer("SELECT id FROM classes WHERE model_index = ? AND label = ?", [.integer(Int64(index)), .text(label)],
                                      step: "writing a class")
        classIDs[key] = id
        classes[id] = key
        return id
    }

    private func sourceID(_ name: String) throws(JournalError) -> Int64 {
        if let id = sourceIDs[name] { return id }
        try database.query("INSERT OR IGNORE INTO sources(name) VALUES (?)", [.text(name)], step: "writing a source")
        let id = try database.integer("SELECT id FROM sources WHERE name = ?", [.text(name)], step: "writing a source")
        sourceIDs[name] = id
        sources[id] = name
        return id
    }

    /// Which readings or events a query selects: from `since` (inclusive) to `until`
    /// (exclusive), of one source or all, after row `afterID` (the page before's last), at most `limit`.
    public struct Selection: Sendable {
        public var since: JournalTime?
        public var until: JournalTime?
        public var source: String?
        public var afterID: Int64?
        public var limit: Int

        public init(since: JournalTime? = nil, until: JournalTime? = nil, source: String? = nil, afterID: Int64? = nil, limit: Int = Int(Int32.max)) {
            self.since = since
            self.until = until
            self.source = source
            self.afterID = afterID
            self.limit = limit
        }

        /// With a start, readings are counted by their time: SQLite would otherwise walk the rows
        /// from the oldest until the first one in time.
        var timeIndex: String { since == nil ? "" : " INDEXED BY readings_by_time" }

        /// The WHERE clause on table columns `time` and `id`, and its values; `newestFirst` pages
        /// towards older rows.
        func clause(time: String, newestFirst: Bool = false) -> (sql: String, values: [SQLiteValue]) {
            var conditions = ["1"], values: [SQLiteValue] = []
            if let since { conditions.append("\(time) >= ?"); values.append(.integer(since.milliseconds)) }
            if let until { conditions.append("\(time) < ?"); values.append(.integer(until.milliseconds)) }
            if let source { conditions.append("source = (SELECT id FROM sources WHERE name = ?)"); values.append(.text(source)) }
            if let afterID { conditions.append(newestFirst ? "id < ?" : "id > ?"); values.append(.integer(afterID)) }
            return (conditions.joined(separator: " AND "), values)
        }
    }

    /// A page of rows: the rows made, and the row number to ask the next page after (nil when
    /// this page was the last). A damaged row passed over still counts towards the page, so
    /// paging goes on past it.
    public struct Page<Row: Sendable>: Sendable {
        public var rows: [Row]
        public var nextAfter: Int64?
    }

    /// The readings `selection` selects, oldest first.
    public func readings(_ selection: Selection) throws(JournalError) -> [JournalReading] { try readingPage(selection).rows }

    /// The readings `selection` selects, oldest first, as a page.
    public func readingPage(_ selection: Selection) throws(JournalError) -> Page<JournalReading> {
        var clause = selection.clause(time: "time")
        var table = "readings"
        if let since = selection.since {
            // Row order from the first row counted at or after `since`: a week of a million readings
            // is then read from its first page's rows on, not found by time and all sorted by row.
            var first: Int64?
            try database.query("SELECT min(first_id) FROM reading_counts WHERE quarter >= ?",
                               [.integer(Journal.floorDivision(since.milliseconds, JournalSchema.countPeriodMilliseconds))],
                               step: "reading readings") { row in first = row.integer(0) }
            guard let first else { return Page(rows: [], nextAfter: nil) }
            clause.sql += " AND id >= ?"
            clause.values.append(.integer(first))
            table = "readings NOT INDEXED"
        }
        var found: [JournalReading] = []
        var lastID: Int64?
        let count = try database.query("""
            SELECT \(Journal.readingColumns.list()), EXISTS (SELECT 1 FROM reading_pictures WHERE reading = readings.id)
            FROM \(table) WHERE \(clause.sql) ORDER BY id LIMIT ?
            """, clause.values + [.integer(Int64(selection.limit))], step: "reading readings") { row in
            lastID = row.integer(0)
            if let reading = reading(row) { found.append(reading) }
        }
        return Page(rows: found, nextAfter: count == selection.limit ? lastID : nil)
    }

    /// The newest `limit` readings of `source`, newest first (the uploads' list on the history).
    public func newestReadings(source: String, limit: Int) throws(JournalError) -> [JournalReading] {
        var found: [JournalReading] = []
        try database.query("""
            SELECT \(Journal.readingColumns.list()), EXISTS (SELECT 1 FROM reading_pictures WHERE reading = readings.id)
            FROM readings WHERE source = (SELECT id FROM sources WHERE name = ?) ORDER BY id DESC LIMIT ?
            """, [.text(source), .integer(Int64(limit))], step: "reading readings") { row in
            if let reading = reading(row) { found.append(reading) }
        }
        return found
    }

    /// The reading in `row`; nil for a damaged row, passed over.
    private func reading(_ row: SQLiteRow) -> JournalReading? {
        guard let values = checked(row, Journal.readingColumns), let id = values[0].integer, let milliseconds = values[1].integer,
              let offset = values[2].integer, let source = values[3].integer else { return nil }
        let time = JournalTime(milliseconds: milliseconds, offsetMinutes: Int(offset))
        var record = ReadingRecord(time: time.iso8601, verdict: .uncertain, top: [], timings: .init(prepare: .nan, invoke: .nan))
        for (field, value) in zip(Journal.keptFields, values.dropFirst(4)) {
            let member: ReadingField.Value
            switch value {
            case .null: continue
            case .integer(let number): member = .integer(Int(number))
            case .real(let number): member = .real(number)
            case .text(let text): member = .text(text)
            case .blob(let bytes): member = .classes(unpacked(bytes))
            }
            guard field.set(&record, member) else {
                passOver(JournalDamagedRow(table: Journal.readingColumns.table, id: id, column: field.sqlColumn ?? field.key, value: JournalColumns.shown(value)))
                return nil
            }
        }
        return JournalReading(id: id, source: sourceName(source), time: time, record: record,
                              hasPicture: row.integer(Int32(Journal.readingColumns.columns.count)) == 1)
    }

    /// How many readings of each verdict `selection` selects, per period of `periodMilliseconds`
    /// counted from the epoch in local time at `offsetMinutes` (a day: 86,400,000): the chart's rows.
    public func verdictCounts(_ selection: Selection, periodMilliseconds: Int64, offsetMinutes: Int) throws(JournalError) -> [(periodStart: JournalTime, counts: [Verdict: Int])] {
        var periods: [Int64: [Verdict: Int]] = [:]
        try periodCounts(selection, .verdicts, periodMilliseconds: periodMilliseconds, offsetMinutes: offsetMinutes) { period, key, count in
            guard case .text(let name) = key, let verdict = Verdict(rawValue: name) else { return }
            periods[period, default: [:]][verdict, default: 0] += Int(count)
        }
        return periods.keys.sorted().map { (periodStart(of: $0, periodMilliseconds: periodMilliseconds, offsetMinutes: offsetMinutes), periods[$0] ?? [:]) }
    }

    /// As `verdictCounts`, each reading counted by what it means (`ReadingMeaning`): the
    /// diagnoses split into healthy leaves and problems by their top class, read from the counts
    /// kept per class as the verdicts' are.
    public func meaningCounts(_ selection: Selection, periodMilliseconds: Int64, offsetMinutes: Int) throws(JournalError) -> [(periodStart: JournalTime, counts: [ReadingMeaning: Int])] {
        var periods: [Int64: [ReadingMeaning: Int]] = [:]
        try periodCounts(selection, .verdicts, periodMilliseconds: periodMilliseconds, offsetMinutes: offsetMinutes) { period, key, count in
            guard case .text(let name) = key, let verdict = Verdict(rawValue: name), verdict != .diagnosis else { return }
            periods[period, default: [:]][ReadingMeaning(verdict: verdict, label: nil), default: 0] += Int(count)
        }
        try periodCounts(selection, .diagnosisClasses, periodMilliseconds: periodMilliseconds, offsetMinutes: offsetMinutes) { period, key, count in
            guard case .blob(let packed) = key else { return }
            let label = unpacked(packed + [0, 0, 0, 0]).first?.label
            periods[period, default: [:]][ReadingMeaning(verdict: .diagnosis, label: label), default: 0] += Int(count)
        }
        return periods.keys.sorted().map { (periodStart(of: $0, periodMilliseconds: periodMilliseconds, offsetMinutes: offsetMinutes), periods[$0] ?? [:]) }
    }

    private func periodStart(of period: Int64, periodMilliseconds: Int64, offsetMinutes: Int) -> JournalTime {
        JournalTime(milliseconds: period * periodMilliseconds - Int64(offsetMinutes) * 60_000, offsetMinutes: offsetMinutes)
    }

    /// A table of counts kept per quarter hour as readings are written, and how to count the
    /// same from the readings themselves: the key each is counted by, and which readings count.
    private struct CountTable {
        var table: String
        var key: String
        var readingKey: String
        var readingCondition: String
        static let verdicts = CountTable(table: "reading_counts", key: "verdict", readingKey: "verdict", readingCondition: "1")
        static let diagnosisClasses = CountTable(table: "diagnosis_counts", key: "class", readingKey: JournalSchema.topClass("top"),
                                                 readingCondition: "verdict = 'diagnosis'")
    }

    /// Counts of `counted` for `selection`, handed to `add` by period (counted from the epoch in
    /// local time at `offsetMinutes`), key and count.
    ///
    /// The whole quarter hours of the selection are read from the counts kept as readings are
    /// written, only its ragged ends from the readings themselves: a dense week is a few
    /// hundred rows to add, not a million to count. A selection after a row number, or periods
    /// and offsets that are not whole quarter hours, count the readings.
    private func periodCounts(_ selection: Selection, _ counted: CountTable, periodMilliseconds: Int64, offsetMinutes: Int,
                              _ add: (Int64, SQLiteValue, Int64) -> Void) throws(JournalError) {
        let offset = Int64(offsetMinutes) * 60_000
        let quarter = JournalSchema.countPeriodMilliseconds
        if selection.afterID != nil || offset % quarter != 0 || periodMilliseconds % quarter != 0 || periodMilliseconds <= 0 {
            try countReadings(selection, counted, periodMilliseconds: periodMilliseconds, offset: offset, add)
            return
        }
        // Quarters wholly inside [since, until): from the counts; the parts of quarters at either end: from the readings.
        let first = selection.since.map { Journal.ceilingDivision($0.milliseconds, quarter) }
        let last = selection.until.map { Journal.floorDivision($0.milliseconds, quarter) }
        if let first, let last, first >= last {
            try countReadings(selection, counted, periodMilliseconds: periodMilliseconds, offset: offset, add)
            return
        }
        if let first, let since = selection.since, since.milliseconds < first * quarter {
            var edge = selection
            edge.until = JournalTime(milliseconds: first * quarter, offsetMinutes: 0)
            try countReadings(edge, counted, periodMilliseconds: periodMilliseconds, offset: offset, add)
        }
        if let last, let until = selection.until, until.milliseconds > last * quarter {
            var edge = selection
            edge.since = JournalTime(milliseconds: last * quarter, offsetMinutes: 0)
            try countReadings(edge, counted, periodMilliseconds: periodMilliseconds, offset: offset, add)
        }
        // Counts a damaged or hand-edited file could hold beyond any reading's are passed over, as its readings are.
        guard case .integer(let times) = Journal.readingColumns.columns[1].holds else { return }
        var conditions = ["quarter BETWEEN ? AND ?", "count BETWEEN 0 AND ?"]
        var values: [SQLiteValue] = [.integer(Journal.floorDivision(times.lowerBound, quarter)), .integer(Journal.floorDivision(times.upperBound, quarter)),
                                     .integer(Int64(Int32.max))]
        if let first { conditions.append("quarter >= ?"); values.append(.integer(first)) }
        if let last { conditions.append("quarter < ?"); values.append(.integer(last)) }
        if let source = selection.source { conditions.append("source = (SELECT id FROM sources WHERE name = ?)"); values.append(.text(source)) }
        let quartersPerPeriod = periodMilliseconds / quarter, offsetQuarters = offset / quarter
        try database.query("""
            SELECT quarter, \(counted.key), sum(count) FROM \(counted.table) WHERE \(conditions.joined(separator: " AND ")) GROUP BY quarter, \(counted.key)
            """, values, step: "counting readings") { row in
            add(Journal.floorDivision((row.integer(0) ?? 0) + offsetQuarters, quartersPerPeriod), row.value(1), row.integer(2) ?? 0)
        }
    }

    /// Counts the readings `selection` selects by period and `counted`'s key, one by one.
    private func countReadings(_ selection: Selection, _ counted: CountTable, periodMilliseconds: Int64, offset: Int64,
                               _ add: (Int64, SQLiteValue, Int64) -> Void) throws(JournalError) {
        let clause = selection.clause(time: "time")
        // A time out of range is a damaged row, which the readings' reader passes over and says.
        guard case .integer(let range) = Journal.readingColumns.columns[1].holds else { return }
        try database.query("""
            SELECT (time + ?) / ? AS period, \(counted.readingKey) AS counted_key, count(*) FROM readings\(selection.timeIndex)
            WHERE \(clause.sql) AND \(counted.readingCondition) AND typeof(time) = 'integer' AND time BETWEEN ? AND ? GROUP BY period, counted_key
            """, [.integer(offset), .integer(periodMilliseconds)] + clause.values + [.integer(range.lowerBound), .integer(range.upperBound)],
            step: "counting readings") { row in
            add(row.integer(0) ?? 0, row.value(1), row.integer(2) ?? 0)
        }
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    static func ceilingDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor > 0 ? quotient + 1 : quotient
    }

    /// The sources readings came from, by name.
    public func sourceNames() throws(JournalError) -> [String] {
        // Read afresh: a writer on another connection may have added one since.
        try loadSources()
        return sources.values.sorted()
    }

    /// The number of readings.
    public func readingCount() throws(JournalError) -> Int {
        Int(try database.integer("SELECT count(*) FROM readings", step: "counting readings"))
    }

    // MARK: Events

    /// Opens an event of `source` in `state` from `start`, with `picture` (JPEG), ending the one
    /// that lasts (if any) at the same instant. Returns the new event's row number.
    @discardableResult
    public func beginEvent(source: String, state: JournalState, start: JournalTime, picture: [UInt8]?) throws(JournalError) -> Int64 {
        let sourceNumber = try sourceID(source)
        let classNumber: SQLiteValue = try state.label.map { label throws(JournalError) in .integer(try classID(index: state.classIndex ?? -1, label: label)) } ?? .null
        try database.query("UPDATE events SET end = ?, end_offset = ? WHERE source = ? AND end IS NULL",
                           [.integer(start.milliseconds), .integer(Int64(start.offsetMinutes)), .integer(sourceNumber)], step: "ending an event")
        try database.query("INSERT INTO events(source, verdict, class, start, start_offset) VALUES (?, ?, ?, ?, ?)",
                           [.integer(sourceNumber), .text(state.verdict.rawValue), classNumber, .integer(start.milliseconds),
                            .integer(Int64(start.offsetMinutes))], step: "writing an event")
        let id = try database.integer("SELECT last_insert_rowid()", step: "writing an event")
        if let picture {
            try database.query("INSERT INTO pictures(event, jpeg) VALUES (?, ?)", [.integer(id), .blob(picture)], step: "writing an event's picture")
        }
        return id
    }

    /// The events `selection` selects by their start, newest first.
    public func events(_ selection: Selection) throws(JournalError) -> [JournalEvent] { try eventPage(selection).rows }

    /// The events `selection` selects by their start, newest first, as a page.
    public func eventPage(_ selection: Selection) throws(JournalError) -> Page<JournalEvent> {
        let clause = selection.clause(time: "start", newestFirst: true)
        var found: [JournalEvent] = []
        var lastID: Int64?
        let count = try database.query("""
            SELECT \(Journal.eventColumns.list()), EXISTS (SELECT 1 FROM pictures WHERE event = events.id) FROM events
            WHERE \(clause.sql) ORDER BY id DESC LIMIT ?
            """, clause.values + [.integer(Int64(selection.limit))], step: "reading events") { row in
            lastID = row.integer(0)
            guard let values = checked(row, Journal.eventColumns), let id = values[0].integer, let source = values[1].integer,
                  let verdict = values[2].text.flatMap(Verdict.init(rawValue:)), let start = values[4].integer, let startOffset = values[5].integer else { return }
            let key = values[3].integer.flatMap { classKey($0) }
            let end = values[6].integer.map { JournalTime(milliseconds: $0, offsetMinutes: Int(values[7].integer ?? 0)) }
            let started = JournalTime(milliseconds: start, offsetMinutes: Int(startOffset))
            found.append(JournalEvent(id: id, source: sourceName(source), state: JournalState(verdict: verdict, label: key?.label, classIndex: key?.index),
                                      start: started, end: end, hasPicture: row.integer(Int32(Journal.eventColumns.columns.count)) == 1,
                                      blockedMilliseconds: values[8].integer ?? 0,
                                      blockedSince: values[9].integer.map { JournalTime(milliseconds: $0, offsetMinutes: started.offsetMinutes) }))
        }
        return Page(rows: found, nextAfter: count == selection.limit ? lastID : nil)
    }

    /// Marks the lasting event of `source` as seen through a blocked view from `time` (no leaf or
    /// no picture in front of the camera), when it is not already.
    public func beginGap(source: String, at time: JournalTime) throws(JournalError) {
        try database.query("UPDATE events SET blocked_since = ? WHERE source = ? AND end IS NULL AND blocked_since IS NULL",
                           [.integer(time.milliseconds), .integer(try sourceID(source))], step: "writing a blocked view")
    }

    /// Ends the blocked view of `source`'s lasting event at `time`, adding it to the event's blocked time.
    public func endGap(source: String, at time: JournalTime) throws(JournalError) {
        try database.query("""
            UPDATE events SET blocked_ms = blocked_ms + max(0, ? - blocked_since), blocked_since = NULL
            WHERE source = ? AND end IS NULL AND blocked_since IS NOT NULL
            """, [.integer(time.milliseconds), .integer(try sourceID(source))], step: "writing a blocked view")
    }

    /// Adds `milliseconds` (taken away when negative) to the blocked time of `source`'s lasting event.
    func shiftBlockedTime(source: String, by milliseconds: Int64) throws(JournalError) {
        guard milliseconds != 0 else { return }
        try database.query("UPDATE events SET blocked_ms = max(0, blocked_ms + ?) WHERE source = ? AND end IS NULL",
                           [.integer(milliseconds), .integer(try sourceID(source))], step: "writing a blocked view")
    }

    /// The event of `source` that lasts, if any.
    public func lastingEvent(source: String) throws(JournalError) -> JournalEvent? {
        // Each event ends when the next begins: only a source's newest can last.
        try events(Selection(source: source, limit: 1)).first.flatMap { $0.end == nil ? $0 : nil }
    }

    // MARK: The day's strip

    static let hourMilliseconds: Int64 = 3_600_000

    /// Keeps `picture` (JPEG) as `source`'s snapshot of the hour of `time`, when it has none yet;
    /// `picture` is asked for only then. Returns whether it kept one.
    @discardableResult
    public func keepSnapshot(source: String, time: JournalTime, picture: () -> [UInt8]?) throws(JournalError) -> Bool {
        let hour = time.milliseconds / Journal.hourMilliseconds
        guard snapshotHours[source] != hour else { return false }
        let sourceNumber = try sourceID(source)
        let kept = try database.integer("SELECT count(*) FROM snapshots WHERE source = ? AND hour = ?", [.integer(sourceNumber), .integer(hour)],
                                        step: "reading the strip")
        snapshotHours[source] = hour
        guard kept == 0, let jpeg = picture() else { return false }
        try database.query("INSERT INTO snapshots(source, hour, utc_offset, jpeg) VALUES (?, ?, ?, ?)",
                           [.integer(sourceNumber), .integer(hour), .integer(Int64(time.offsetMinutes)), .blob(jpeg)], step: "writing the strip")
        return true
    }

    /// `source`'s snapshots from `since` on, oldest first: each its row number and its hour.
    public func strip(source: String, since: JournalTime) throws(JournalError) -> [(id: Int64, hour: JournalTime)] {
        var found: [(id: Int64, hour: JournalTime)] = []
        try database.query("""
            SELECT \(Journal.snapshotColumns.list()) FROM snapshots WHERE source = (SELECT id FROM sources WHERE name = ?) AND hour >= ? ORDER BY hour
            """, [.text(source), .integer(since.milliseconds / Journal.hourMilliseconds)], step: "reading the strip") { row in
            guard let values = checked(row, Journal.snapshotColumns), let id = values[0].integer, let hour = values[1].integer,
                  let offset = values[2].integer else { return }
            found.append((id, JournalTime(milliseconds: hour * Journal.hourMilliseconds, offsetMinutes: Int(offset))))
        }
        return found
    }

    /// Snapshot `id`'s JPEG, nil when it is not kept.
    public func snapshot(id: Int64) throws(JournalError) -> [UInt8]? {
        try picture(JournalColumns("snapshots", [.id(), Journal.jpeg]), id: id)
    }

    /// `source`'s newest readings that have a picture, at most `limit`, oldest first: each its row
    /// number and its time.
    public func readingsWithPictures(source: String, limit: Int) throws(JournalError) -> [(id: Int64, time: JournalTime)] {
        var found: [(id: Int64, time: JournalTime)] = []
        // The reading's own columns: when it was taken.
        let columns = JournalColumns(Journal.readingColumns.table, Array(Journal.readingColumns.columns.prefix(3)))
        // From the pictures (uploads' only) to their readings: the other way round, SQLite would
        // walk every reading of every camera, newest first, to find the few that have one.
        try database.query("""
            SELECT \(columns.list(qualifier: "readings")) FROM reading_pictures CROSS JOIN readings ON readings.id = reading_pictures.reading
            WHERE source = (SELECT id FROM sources WHERE name = ?) ORDER BY reading_pictures.reading DESC LIMIT ?
            """, [.text(source), .integer(Int64(limit))], step: "reading readings' pictures") { row in
            guard let values = checked(row, columns), let id = values[0].integer, let milliseconds = values[1].integer,
                  let offset = values[2].integer else { return }
            found.append((id, JournalTime(milliseconds: milliseconds, offsetMinutes: Int(offset))))
        }
        return found.reversed()
    }

    /// Reading `id`'s picture (JPEG), nil when it has none or is no longer kept.
    public func readingPicture(id: Int64) throws(JournalError) -> [UInt8]? {
        try picture(JournalColumns("reading_pictures", [.id("reading"), Journal.jpeg]), id: id)
    }

    /// Event `id`'s picture (JPEG), nil when it has none or is no longer kept.
    public func eventPicture(id: Int64) throws(JournalError) -> [UInt8]? {
        try picture(JournalColumns("pictures", [.id("event"), Journal.jpeg]), id: id)
    }

    static let jpeg = JournalColumn("jpeg", .blob(multipleOf: 1))

    /// The JPEG of row `id` of a table of pictures (`columns`: its row number's, its picture's),
    /// nil when there is none.
    private func picture(_ columns: JournalColumns, id: Int64) throws(JournalError) -> [UInt8]? {
        var picture: [UInt8]?
        try database.query("SELECT \(columns.list()) FROM \(columns.table) WHERE \(columns.columns[0].name) = ?", [.integer(id)], step: "reading a picture") { row in
            picture = checked(row, columns)?[1].blob
        }
        return picture
    }
}
