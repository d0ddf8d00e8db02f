import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport

/// A grower's lessons in an SQLite file of their own (default: beside the journal, which prunes
/// only itself): each lesson is a class name as the grower wrote it, the model's pooled features
/// of the photo and of its mirror image, and the 224 × 224 picture the model saw, as a JPEG, so
/// that a wrong lesson can be seen and removed. The file also keeps what the features are
/// compared against: the sample leaves' mean feature (the centre) and each model class's mean,
/// measured once when the first lesson is added, so every later comparison uses the same ones.
///
/// Every change is one transaction: a command that fails part-way leaves the lessons as they
/// were, and two writers wait for each other (SQLite's write-ahead log and busy timeout).
public final class LessonsFile {
    /// Written in `PRAGMA application_id`: what tells a lessons file from other SQLite files.
    static let applicationID: Int64 = 0x504C_4C53  // "PLLS"
    static let formatVersion: Int64 = 1
    /// Budgets for a file that may come from anyone (an import): lessons, and bytes per picture.
    public static let maximumLessons = 5000
    public static let maximumPictureBytes = 30 * 1024
    /// The longest class name, in characters: a disease's name in any script, with the crop's.
    public static let maximumNameLength = 120

    public let path: String
    private let database: SQLiteDatabase

    /// One lesson as stored.
    public struct Lesson: Sendable {
        public var id: Int64
        public var className: String
        public var features: [Float]
        public var mirroredFeatures: [Float]?
        public var picture: [UInt8]
        /// The photo's file name when it was taught, for the grower's list.
        public var source: String
        public var added: String
    }

    /// What the lessons are compared against; nil in a file with no lesson yet.
    public struct Reference: Sendable, Equatable {
        public var centre: [Float]
        public var modelClassMeans: [[Float]]
        /// The model they were measured with (`Classifier.featureSignature`).
        public var model: String?

        public init(centre: [Float], modelClassMeans: [[Float]], model: String? = nil) {
            self.centre = centre
            self.modelClassMeans = modelClassMeans
            self.model = model
        }
    }

    /// Opens the lessons at `path`; a writer makes the file (and its folders) when it is not there.
    /// - Throws: `LessonsError`: not found (a reader's), not a lessons file, damaged, unwritable.
    public init(path: String, readOnly: Bool = false) throws(LessonsError) {
        self.path = path
        if readOnly && access(path, F_OK) != 0 { throw .notFound(path: path) }
        if !readOnly {
            var folder = ""
            for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() where !component.isEmpty {
                folder += "/" + component
                mkdir(path.hasPrefix("/") ? folder : String(folder.dropFirst()), 0o755)
            }
        }
        do {
            database = try SQLiteDatabase(path: path, readOnly: readOnly, create: !readOnly)
            let tables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'", step: "reading the lessons")
            let application = try database.integer("PRAGMA application_id", step: "reading the lessons")
            if tables > 0 && application != LessonsFile.applicationID { throw LessonsError.notALessonsFile(path: path) }
            if !readOnly {
                try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", step: "opening the lessons")
                if tables == 0 {
                    try database.transaction(step: "creating the lessons") { () throws(JournalError) in
                        try database.execute("""
                            PRAGMA application_id = \(LessonsFile.applicationID);
                            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);
                            CREATE TABLE IF NOT EXISTS lessons(id INTEGER PRIMARY KEY, class TEXT NOT NULL, features BLOB NOT NULL,
                                mirrored BLOB, picture BLOB NOT NULL, source TEXT NOT NULL, added TEXT NOT NULL);
                            INSERT OR IGNORE INTO meta(key, value) VALUES ('format', \(LessonsFile.formatVersion));
                            """, step: "creating the lessons")
                    }
                }
            }
            let format = try database.integer("SELECT value FROM meta WHERE key = 'format'", step: "reading the lessons")
            guard format == LessonsFile.formatVersion else { throw LessonsError.damaged(path: path, problem: "format \(format), this build reads \(LessonsFile.formatVersion)") }
        } catch let error as LessonsError {
            throw error
        } catch let error as JournalError {
            if case .notADatabase = error { throw LessonsError.damaged(path: path, problem: "it is not an SQLite file, or is damaged") }
            throw LessonsError.storage(error)
        } catch {
            throw LessonsError.damaged(path: path, problem: "\(error)")
        }
    }

    /// The default file: `lessons.sqlite` in the folder of the journal's default path.
    public static func defaultPath(environment: [String: String]) -> String? {
        guard let journal = Journal.defaultPath(environment: environment), let slash = journal.lastIndex(of: "/") else { return nil }
        return String(journal[..<slash]) + "/lessons.sqlite"
    }

    /// Why `name` cannot name a class, or nil: empty, over `maximumNameLength`, or with control
    /// characters (a line break would split the list and the CSV).
    public static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingWhitespace
        if trimmed.isEmpty { return "the class name is empty" }
        if trimmed.count > maximumNameLength { return "the class name has \(trimmed.count) characters, over \(maximumNameLength)" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "the class name holds control characters" }
        return nil
    }

    // MARK: - Reading

    public func reference() throws(LessonsError) -> Reference? {
        var centre: [Float]?, means: [Float]?, classes = 0, model: String?
        try run("reading the lessons") { () throws(JournalError) in
            try database.query("SELECT key, value FROM meta", step: "reading the lessons") { row in
                switch row.text(0) {
                case "centre": centre = row.blob(1).map(LessonsFile.floats)
                case "model_means": means = row.blob(1).map(LessonsFile.floats)
                case "model_classes": classes = Int(row.integer(1) ?? 0)
                // Empty: taught before the model was recorded, or with a model PlantLeaf could not name.
                case "model": model = row.text(1).flatMap { $0.isEmpty ? nil : $0 }
                default: break
                }
            }
        }
        guard let centre else { return nil }
        // The class count is read from the file: a product that overflows is damage, not a trap.
        let (expected, overflow) = classes.multipliedReportingOverflow(by: centre.count)
        guard let means, !centre.isEmpty, classes >= 0, !overflow, means.count == expected else {
            throw .damaged(path: path, problem: "its reference vectors do not fit together")
        }
        var reference = Reference(centre: centre, modelClassMeans: (0..<classes).map { Array(means[($0 * centre.count)..<(($0 + 1) * centre.count)]) })
        reference.model = model
        return reference
    }

    /// Every lesson, oldest first; with `pictures` false, their pictures are left out (empty).
    public func lessons(pictures: Bool = false) throws(LessonsError) -> [Lesson] {
        let reference = try reference()
        var result: [Lesson] = []
        var problem: String?
        let columns = pictures ? "picture" : "x''"
        try run("reading the lessons") { () throws(JournalError) in
            try database.query("SELECT id, class, features, mirrored, \(columns), source, added FROM lessons ORDER BY id LIMIT \(LessonsFile.maximumLessons + 1)",
                               step: "reading the lessons") { row in
                let features = LessonsFile.floats(row.blob(2) ?? [])
                let mirrored = row.blob(3).map(LessonsFile.floats)
                let id = row.integer(0) ?? 0
                if let reference, features.count != reference.centre.count || (mirrored.map { $0.count != reference.centre.count } ?? false) {
                    problem = problem ?? "lesson \(id) has \(features.count) features, the others \(reference.centre.count)"
                }
                result.append(Lesson(id: id, className: row.text(1) ?? "", features: features, mirroredFeatures: mirrored,
                                     picture: row.blob(4) ?? [], source: row.text(5) ?? "", added: row.text(6) ?? ""))
            }
        }
        if let problem { throw .damaged(path: path, problem: problem) }
        if result.count > LessonsFile.maximumLessons { throw .damaged(path: path, problem: "it holds more than \(LessonsFile.maximumLessons) lessons") }
        if !result.isEmpty && reference == nil { throw .damaged(path: path, problem: "it has lessons but no reference vectors") }
        return result
    }

    /// The lessons ready for classifying; nil when there are none.
    public func taughtClasses() throws(LessonsError) -> TaughtClasses? {
        let lessons = try lessons()
        guard let reference = try reference(), !lessons.isEmpty else { return nil }
        var taught = TaughtClasses(examples: lessons.map(\.example), centre: reference.centre, modelClassMeans: reference.modelClassMeans)
        taught.model = reference.model
        return taught
    }

    /// The lessons at `path` for classify, camera and serve: nil when the file is not there.
    public static func loadIfPresent(path: String) throws(LessonsError) -> TaughtClasses? {
        guard access(path, F_OK) == 0 else { return nil }
        return try LessonsFile(path: path, readOnly: true).taughtClasses()
    }

    // MARK: - Writing

    /// A lesson to add: the class, the photo's features (and its mirror's), its picture.
    public struct NewLesson: Sendable {
        public var className: String
        public var features: [Float]
        public var mirroredFeatures: [Float]?
        public var picture: [UInt8]
        public var source: String

        public init(className: String, features: [Float], mirroredFeatures: [Float]?, picture: [UInt8], source: String) {
            self.className = className
            self.features = features
            self.mirroredFeatures = mirroredFeatures
            self.picture = picture
            self.source = source
        }
    }

    /// Adds `lessons` in one transaction, with `reference` stored first when the file has none
    /// (a file keeps the reference its first lesson was taught with).
    /// - Throws: `LessonsError`; then nothing was added.
    public func add(_ lessons: [NewLesson], reference: Reference, time: String) throws(LessonsError) {
        for lesson in lessons {
            if let problem = LessonsFile.nameProblem(lesson.className) { throw .badName(problem) }
            guard lesson.picture.count <= LessonsFile.maximumPictureBytes else {
                throw .pictureTooLarge(source: lesson.source, bytes: lesson.picture.count)
            }
        }
        let stored = try self.reference()
        let featureCount = stored?.centre.count ?? reference.centre.count
        guard lessons.allSatisfy({ $0.features.count == featureCount }) else {
            throw .wrongModel(path: path, features: lessons.first?.features.count ?? 0, expected: featureCount)
        }
        let existing = try database.integerCount(path: path)
        guard existing + lessons.count <= LessonsFile.maximumLessons else { throw .tooManyLessons(limit: LessonsFile.maximumLessons) }
        try run("writing the lessons") { () throws(JournalError) in
            try database.transaction(step: "writing the lessons") { () throws(JournalError) in
                if try database.integer("SELECT count(*) FROM meta WHERE key = 'centre'", step: "writing the lessons") == 0 {
                    try database.query("INSERT INTO meta(key, value) VALUES ('centre', ?), ('model_means', ?), ('model_classes', ?), ('model', ?)",
                                       [.blob(LessonsFile.bytes(reference.centre)), .blob(LessonsFile.bytes(reference.modelClassMeans.flatMap { $0 })),
                                        .integer(Int64(reference.modelClassMeans.count)), .text(reference.model ?? "")], step: "writing the lessons")
                }
                for lesson in lessons {
                    try database.query("INSERT INTO lessons(class, features, mirrored, picture, source, added) VALUES (?, ?, ?, ?, ?, ?)",
                                       [.text(lesson.className.trimmingWhitespace), .blob(LessonsFile.bytes(lesson.features)),
                                        lesson.mirroredFeatures.map { .blob(LessonsFile.bytes($0)) } ?? .null, .blob(lesson.picture),
                                        .text(lesson.source), .text(time)], step: "writing the lessons")
                }
            }
        }
    }

    /// Removes the lessons with these ids, or every lesson of the class `className`; returns how many went.
    public func remove(ids: [Int64], className: String?) throws(LessonsError) -> Int {
        var removed = 0
        try run("removing lessons") { () throws(JournalError) in
            try database.transaction(step: "removing lessons") { () throws(JournalError) in
                for id in ids {
                    try database.query("DELETE FROM lessons WHERE id = ?", [.integer(id)], step: "removing lessons")
                    removed += Int(try database.integer("SELECT changes()", step: "removing lessons"))
                }
                if let className {
                    try database.query("DELETE FROM lessons WHERE class = ?", [.text(className)], step: "removing lessons")
                    removed += Int(try database.integer("SELECT changes()", step: "removing lessons"))
                }
            }
        }
        return removed
    }

    /// Writes a copy of the whole file to `destination`, which must not exist yet.
    public func export(to destination: String) throws(LessonsError) {
        guard access(destination, F_OK) != 0 else { throw .exists(path: destination) }
        try run("exporting the lessons") { () throws(JournalError) in
            try database.query("VACUUM INTO ?", [.text(destination)], step: "exporting the lessons")
        }
    }

    /// Adds every lesson of the lessons file at `source` not here already (same class, same
    /// features), in one transaction; returns how many were added.
    public func importLessons(from source: String) throws(LessonsError) -> Int {
        let other = try LessonsFile(path: source, readOnly: true)
        guard let theirReference = try other.reference() else { return 0 }
        let theirs = try other.lessons(pictures: true)
        if let ours = try reference(), ours.centre.count != theirReference.centre.count || ours.model != theirReference.model {
            throw .wrongModel(path: source, features: theirReference.centre.count, expected: ours.centre.count)
        }
        let known = Set(try lessons().map { LessonKey(className: $0.className, features: $0.features) })
        let fresh = theirs.filter { !known.contains(LessonKey(className: $0.className, features: $0.features)) }
        for lesson in fresh where lesson.picture.count > LessonsFile.maximumPictureBytes {
            throw .damaged(path: source, problem: "lesson \(lesson.id)'s picture has \(lesson.picture.count) bytes, over \(LessonsFile.maximumPictureBytes)")
        }
        for lesson in fresh {
            if let problem = LessonsFile.nameProblem(lesson.className) { throw .damaged(path: source, problem: "lesson \(lesson.id): \(problem)") }
        }
        try add(fresh.map { NewLesson(className: $0.className, features: $0.features, mirroredFeatures: $0.mirroredFeatures,
                                      picture: $0.picture, source: $0.source) },
                reference: theirReference, time: JournalTime.now().iso8601)
        return fresh.count
    }

    private struct LessonKey: Hashable {
        var className: String
        var features: [Float]
    }

    /// Runs `body`, its SQLite failures worded as the lessons file's.
    private func run(_ step: String, _ body: () throws(JournalError) -> Void) throws(LessonsError) {
        do {
            try body()
        } catch {
            switch error {
            case .notADatabase: throw .damaged(path: path, problem: "it is not an SQLite file, or is damaged")
            default: throw .storage(error)
            }
        }
    }

    static func bytes(_ values: [Float]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    static func floats(_ bytes: [UInt8]) -> [Float] {
        guard bytes.count % 4 == 0 else { return [] }
        var values: [Float] = []
        values.reserveCapacity(bytes.count / 4)
        for offset in stride(from: 0, to: bytes.count, by: 4) {
            var pattern = UInt32(bytes[offset])
            pattern |= UInt32(bytes[offset + 1]) << 8
            pattern |= UInt32(bytes[offset + 2]) << 16
            pattern |= UInt32(bytes[offset + 3]) << 24
            values.append(Float(bitPattern: pattern))
        }
        return values
    }
}

extension LessonsFile.Lesson {
    public var example: TaughtClasses.Example {
        TaughtClasses.Example(className: className, features: features, mirroredFeatures: mirroredFeatures)
    }
}

extension SQLiteDatabase {
    fileprivate func integerCount(path: String) throws(LessonsError) -> Int {
        do {
            return Int(try integer("SELECT count(*) FROM lessons", step: "reading the lessons"))
        } catch {
            throw .storage(error)
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
