import CSQLite
import PlantLeafCore

/// One connection to an SQLite file through the system's libsqlite3, opened with dlopen. Not
/// shared between threads: each thread that reads or writes opens its own (SQLite's write-ahead
/// log lets one write while others read).
package final class SQLiteDatabase {
    package static let librarySoname = PL_SQLITE_SONAME

    package let path: String
    private let handle: OpaquePointer
    /// Prepared once, kept for the life of the connection.
    private var statements: [String: OpaquePointer] = [:]

    /// Loads libsqlite3 once per process.
    /// - Throws: `.libraryMissing`, `.libraryUnusable`.
    package static func loadLibrary() throws(JournalError) {
        var detail = [CChar](repeating: 0, count: 512)
        let state = pl_sqlite_load(librarySoname, &detail, detail.count)
        switch LibraryLoad(state: state, detail: detail, library: librarySoname) {
        case .loaded: return
        case .notOpened(let reason): throw .libraryMissing(reason: reason)
        case .unusable(let reason): throw .libraryUnusable(reason: reason)
        }
    }

    /// Opens (and with `create`, makes) the database at `path`; read-only when `readOnly`.
    package init(path: String, readOnly: Bool, create: Bool) throws(JournalError) {
        try SQLiteDatabase.loadLibrary()
        self.path = path
        var opened: OpaquePointer?
        let flags = (readOnly ? kPLSQLiteOpenReadOnly : kPLSQLiteOpenReadWrite | (create ? kPLSQLiteOpenCreate : 0)) | kPLSQLiteOpenNoMutex
        let code = pl_sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else { throw .failed(path: path, step: "opening", reason: "out of memory") }
        handle = opened
        guard code == kPLSQLiteOK else {
            let error = SQLiteDatabase.error(code, path: path, step: "opening", message: String(cString: pl_sqlite3_errmsg(opened)))
            pl_sqlite3_close_v2(opened)
            throw error
        }
        pl_sqlite3_extended_result_codes(handle, 1)
        // A reader and the writer in other processes wait for each other's short locks rather than fail.
        pl_sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        for statement in statements.values { pl_sqlite3_finalize(statement) }
        pl_sqlite3_close_v2(handle)
    }

    /// The typed error for SQLite's result `code` while doing `step`.
    package static func error(_ code: Int32, path: String, step: String, message: String) -> JournalError {
        switch code & 0xff {
        case kPLSQLiteNotADatabase, kPLSQLiteCorrupt: return .notADatabase(path: path)
        case kPLSQLiteReadOnly: return .readOnly(path: path)
        case kPLSQLiteFull: return .diskFull(path: path)
        case kPLSQLiteBusy: return .busy(path: path)
        case kPLSQLiteCannotOpen where step == "opening": return .failed(path: path, step: step, reason: "cannot open the file (\(message))")
        default: return .failed(path: path, step: step, reason: message)
        }
    }

    private func failure(_ code: Int32, _ step: String) -> JournalError {
        SQLiteDatabase.error(code, path: path, step: step, message: String(cString: pl_sqlite3_errmsg(handle)))
    }

    /// Runs statements that return no rows (schema, pragmas, transactions).
    package func execute(_ sql: String, step: String) throws(JournalError) {
        let code = pl_sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == kPLSQLiteOK else { throw failure(code, step) }
    }

    /// Runs `sql` with `values` bound to its ?s, calling `row` for each row; returns the rows' count.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLiteValue] = [], step: String, row: (SQLiteRow) throws(JournalError) -> Void = { _ in }) throws(JournalError) -> Int {
        let statement: OpaquePointer
        if let prepared = statements[sql] {
            statement = prepared
        } else {
            var prepared: OpaquePointer?
            let code = pl_sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
            guard code == kPLSQLiteOK, let prepared else { throw failure(code, step) }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            pl_sqlite3_reset(statement)
            pl_sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = pl_sqlite3_bind_null(statement, index)
            case .integer(let number): code = pl_sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = number.isFinite ? pl_sqlite3_bind_double(statement, index, number) : pl_sqlite3_bind_null(statement, index)
            case .text(let text):
                let bytes = Array(text.utf8)
                code = bytes.withUnsafeBytes { pl_sqlite_bind_text_copy(statement, index, $0.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { pl_sqlite_bind_blob_copy(statement, index, $0.baseAddress, Int32(bytes.count)) }
            }
            guard code == kPLSQLiteOK else { throw failure(code, step) }
        }
        var count = 0
        while true {
            let code = pl_sqlite3_step(statement)
            if code == kPLSQLiteDone { return count }
            guard code == kPLSQLiteRow else { throw failure(code, step) }
            count += 1
            try row(SQLiteRow(statement: statement))
        }
    }

    /// The first column of the first row as an integer (a count, a pragma), 0 when none.
    package func integer(_ sql: String, _ values: [SQLiteValue] = [], step: String) throws(JournalError) -> Int64 {
        var result: Int64 = 0
        try query(sql, values, step: step) { row in result = row.integer(0) ?? 0 }
        return result
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws.
    package func transaction<Result>(step: String, _ body: () throws(JournalError) -> Result) throws(JournalError) -> Result {
        try execute("BEGIN IMMEDIATE", step: step)
        do {
            let result = try body()
            try execute("COMMIT", step: step)
            return result
        } catch {
            try? execute("ROLLBACK", step: step)
            throw error
        }
    }
}

/// A value bound to a statement's parameter, or read from a row's column.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// The current row of a statement, read by column index; valid only within the row callback.
package struct SQLiteRow {
    let statement: OpaquePointer

    package func isNull(_ column: Int32) -> Bool { pl_sqlite3_column_type(statement, column) == kPLSQLiteNull }
    package func integer(_ column: Int32) -> Int64? { isNull(column) ? nil : pl_sqlite3_column_int64(statement, column) }
    package func text(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = pl_sqlite3_column_text(statement, column) else { return nil }
        let count = Int(pl_sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    /// The column's value as SQLite stores it, whatever the column's declared type.
    package func value(_ column: Int32) -> SQLiteValue {
        switch pl_sqlite3_column_type(statement, column) {
        case kPLSQLiteInteger: return .integer(pl_sqlite3_column_int64(statement, column))
        case kPLSQLiteFloat: return .real(pl_sqlite3_column_double(statement, column))
        case kPLSQLiteText: return .text(text(column) ?? "")
        case kPLSQLiteBlob: return .blob(blob(column) ?? [])
        default: return .null
        }
    }
    package func blob(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(pl_sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = pl_sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
