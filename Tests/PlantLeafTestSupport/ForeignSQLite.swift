import CLibraryLoader
import CSQLite

/// SQL run on a file the way another program would change it, outside PlantLeaf's journal code:
/// straight through libsqlite3's `sqlite3_exec`. The sqlite3 command-line tool would do the same,
/// but the aarch64 build root (like many systems) has only the library.
public enum ForeignSQLite {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `sql` (one or more statements) on the database at `path`, made when missing.
    public static func execute(_ path: String, _ sql: String) throws(Failure) {
        var detail = [CChar](repeating: 0, count: 512)
        guard pl_sqlite_load(PL_SQLITE_SONAME, &detail, detail.count) == Int32(PL_LIBRARY_LOADED) else {
            throw Failure(description: "cannot load \(PL_SQLITE_SONAME): " + String(decoding: detail.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var database: OpaquePointer?
        defer { if let database { pl_sqlite3_close_v2(database) } }
        guard pl_sqlite3_open_v2(path, &database, kPLSQLiteOpenReadWrite | kPLSQLiteOpenCreate, nil) == kPLSQLiteOK, let database else {
            throw Failure(description: "cannot open \(path)")
        }
        guard pl_sqlite3_exec(database, sql, nil, nil, nil) == kPLSQLiteOK else {
            throw Failure(description: "\(path): \(String(cString: pl_sqlite3_errmsg(database)))")
        }
    }

    /// The first column of each row `sql` gives on the database at `path`, as text.
    public static func query(_ path: String, _ sql: String) throws(Failure) -> [String] {
        var detail = [CChar](repeating: 0, count: 512)
        guard pl_sqlite_load(PL_SQLITE_SONAME, &detail, detail.count) == Int32(PL_LIBRARY_LOADED) else {
            throw Failure(description: "cannot load \(PL_SQLITE_SONAME)")
        }
        var database: OpaquePointer?
        defer { if let database { pl_sqlite3_close_v2(database) } }
        guard pl_sqlite3_open_v2(path, &database, kPLSQLiteOpenReadOnly, nil) == kPLSQLiteOK, let database else {
            throw Failure(description: "cannot open \(path)")
        }
        var statement: OpaquePointer?
        guard pl_sqlite3_prepare_v2(database, sql, -1, &statement, nil) == kPLSQLiteOK, let statement else {
            throw Failure(description: "\(path): \(String(cString: pl_sqlite3_errmsg(database)))")
        }
        defer { pl_sqlite3_finalize(statement) }
        var rows: [String] = []
        while pl_sqlite3_step(statement) == kPLSQLiteRow {
            rows.append(pl_sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return rows
    }
}
