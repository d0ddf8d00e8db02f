import Glibc
import PlantLeafCore

/// Why the journal could not be opened, read or written: one line that says what failed and
/// where, in any catalogue's language.
public enum JournalError: WordedError {
    /// dlopen could not open libsqlite3.so.0 (`reason` is the loader's).
    case libraryMissing(reason: String)
    /// libsqlite3.so.0 opened but lacks an entry point PlantLeaf calls.
    case libraryUnusable(reason: String)
    /// There is no journal at the path a reader was given.
    case notFound(path: String)
    /// The path names a FIFO, a device, a socket or a folder: `mode` is `stat`'s.
    case notARegularFile(path: String, mode: mode_t)
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
    /// Another process held the journal's write lock longer than a write waits for it.
    case busy(path: String)
    /// Any other failure SQLite reports: `step` is what was being done, `reason` SQLite's words.
    case failed(path: String, step: String, reason: String)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .libraryMissing: return catalogue.text("error.library.missing", ["library": SQLiteDatabase.librarySoname])
        case .libraryUnusable: return catalogue.text("error.library.unusable", ["library": SQLiteDatabase.librarySoname])
        case .notFound(let path): return catalogue.text("error.journal.not-found", ["path": path])
        case .notARegularFile(let path, let mode):
            return catalogue.text("error.journal.not-regular", ["path": path, "kind": FileReadError.notRegularFile(mode: mode).message(in: catalogue)])
        case .notADatabase(let path): return catalogue.text("error.journal.not-a-database", ["path": path])
        case .notAJournal(let path): return catalogue.text("error.journal.not-a-journal", ["path": path])
        case .newerSchema(let path, let version):
            return catalogue.text("error.journal.newer-schema", ["path": path, "version": String(version), "supported": String(Journal.schemaVersion)])
        case .readOnly(let path): return catalogue.text("error.journal.read-only", ["path": path])
        case .diskFull(let path): return catalogue.text("error.journal.disk-full", ["path": path])
        case .busy(let path): return catalogue.text("error.journal.busy", ["path": path])
        // The step names the SQL being run, as SQLite's reason does: both are values.
        case .failed(let path, let step, _): return catalogue.text("error.journal.failed", ["path": path, "step": step])
        }
    }

    /// The loader's and SQLite's own words, passed on as they are.
    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .libraryMissing(let reason), .libraryUnusable(let reason), .failed(_, _, let reason): return reason
        default: return nil
        }
    }
}
