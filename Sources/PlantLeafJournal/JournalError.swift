import PlantLeafCore

/// Why the journal could not be opened, read or written: one line that says what failed and where.
public enum JournalError: PlantLeafError {
    /// dlopen could not open libsqlite3.so.0 (`reason` is the loader's).
    case libraryMissing(reason: String)
    /// libsqlite3.so.0 opened but lacks an entry point PlantLeaf calls.
    case libraryUnusable(reason: String)
    /// There is no journal at the path a reader was given.
    case notFound(path: String)
    /// The file is there but is not an SQLite database (or is damaged beyond reading).
    case notADatabase(path: String)
    /// An SQLite database, but not a PlantLeaf journal: it has tables and no schema version.
    case notAJournal(path: String)
    /// Written by a newer PlantLeaf, in a schema after `Journal.schemaVersion`.
    case newerSchema(path: String, version: Int)
    /// The file or its folder cannot be written (permissions, a read-only file system).
    case readOnly(path: String)
    /// The disk (or the file system's quota) is full.
    case diskFull(path: String)
    /// Any other failure SQLite reports: `step` is what was being done, `reason` SQLite's words.
    case failed(path: String, step: String, reason: String)

    public var message: String {
        switch self {
        case .libraryMissing: return "\(SQLiteDatabase.librarySoname) not found"
        case .libraryUnusable: return "\(SQLiteDatabase.librarySoname) is unusable"
        case .notFound(let path): return "no journal at \(path)"
        case .notADatabase(let path): return "journal \(path) is not an SQLite database"
        case .notAJournal(let path): return "journal \(path) is an SQLite database but not a PlantLeaf journal"
        case .newerSchema(let path, let version):
            return "journal \(path) has schema \(version), newer than this build reads (\(Journal.schemaVersion))"
        case .readOnly(let path): return "journal \(path) cannot be written (read-only)"
        case .diskFull(let path): return "journal \(path): the disk is full"
        case .failed(let path, let step, _): return "journal \(path): \(step) failed"
        }
    }

    public var details: String? {
        switch self {
        case .libraryMissing(let reason), .libraryUnusable(let reason), .failed(_, _, let reason): return reason
        default: return nil
        }
    }
}
