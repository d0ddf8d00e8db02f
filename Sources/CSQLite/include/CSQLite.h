// The project's own declarations of the part of the SQLite 3 C API that PlantLeaf's journal
// calls, written from the documented API (sqlite.org/c3ref). The library is opened at run time
// with dlopen, like libmosquitto and libmicrohttpd: building PlantLeaf never needs it, the
// aarch64 build and minimal roots stay as they are, and a system without it gets one line from
// the journal while the camera keeps reading.
#ifndef PLANTLEAF_CSQLITE_H
#define PLANTLEAF_CSQLITE_H

#include <stddef.h>
#include <stdint.h>

// The soname Debian's libsqlite3-0 installs.
#define PL_SQLITE_SONAME "libsqlite3.so.0"

// Result codes (sqlite3.h) PlantLeaf tells apart; the primary code is the low byte of an
// extended one. Macros rather than an enum so that Swift sees them as Int32.
#define kPLSQLiteOK 0
#define kPLSQLiteBusy 5
#define kPLSQLiteReadOnly 8
#define kPLSQLiteCorrupt 11
#define kPLSQLiteFull 13
#define kPLSQLiteCannotOpen 14
#define kPLSQLiteNotADatabase 26
#define kPLSQLiteRow 100
#define kPLSQLiteDone 101

// Column types of sqlite3_column_type.
#define kPLSQLiteInteger 1
#define kPLSQLiteFloat 2
#define kPLSQLiteText 3
#define kPLSQLiteBlob 4
#define kPLSQLiteNull 5

// Flags of sqlite3_open_v2.
#define kPLSQLiteOpenReadOnly 0x00000001
#define kPLSQLiteOpenReadWrite 0x00000002
#define kPLSQLiteOpenCreate 0x00000004
#define kPLSQLiteOpenNoMutex 0x00008000

// Handles; their layout is the library's own business.
typedef struct sqlite3 PLSQLite;
typedef struct sqlite3_stmt PLSQLiteStatement;

// X-macro list of every entry point PlantLeaf uses: return type, name, parameters, arguments.
#define PL_SQLITE_FUNCTIONS(X) \
    X(int, sqlite3_open_v2, (const char *path, PLSQLite **database, int flags, const char *vfs), (path, database, flags, vfs)) \
    X(int, sqlite3_close_v2, (PLSQLite *database), (database)) \
    X(int, sqlite3_extended_result_codes, (PLSQLite *database, int on), (database, on)) \
    X(int, sqlite3_busy_timeout, (PLSQLite *database, int milliseconds), (database, milliseconds)) \
    X(int, sqlite3_exec, (PLSQLite *database, const char *sql, void *callback, void *context, char **error), (database, sql, callback, context, error)) \
    X(int, sqlite3_prepare_v2, (PLSQLite *database, const char *sql, int length, PLSQLiteStatement **statement, const char **tail), (database, sql, length, statement, tail)) \
    X(int, sqlite3_step, (PLSQLiteStatement *statement), (statement)) \
    X(int, sqlite3_reset, (PLSQLiteStatement *statement), (statement)) \
    X(int, sqlite3_clear_bindings, (PLSQLiteStatement *statement), (statement)) \
    X(int, sqlite3_finalize, (PLSQLiteStatement *statement), (statement)) \
    X(int, sqlite3_bind_int64, (PLSQLiteStatement *statement, int index, int64_t value), (statement, index, value)) \
    X(int, sqlite3_bind_double, (PLSQLiteStatement *statement, int index, double value), (statement, index, value)) \
    X(int, sqlite3_bind_null, (PLSQLiteStatement *statement, int index), (statement, index)) \
    X(int, sqlite3_bind_text, (PLSQLiteStatement *statement, int index, const char *text, int length, void (*destructor)(void *)), (statement, index, text, length, destructor)) \
    X(int, sqlite3_bind_blob, (PLSQLiteStatement *statement, int index, const void *bytes, int length, void (*destructor)(void *)), (statement, index, bytes, length, destructor)) \
    X(int, sqlite3_column_type, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(int64_t, sqlite3_column_int64, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(double, sqlite3_column_double, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(const unsigned char *, sqlite3_column_text, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(const void *, sqlite3_column_blob, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(int, sqlite3_column_bytes, (PLSQLiteStatement *statement, int column), (statement, column)) \
    X(const char *, sqlite3_errmsg, (PLSQLite *database), (database)) \
    X(const char *, sqlite3_errstr, (int code), (code)) \
    X(const char *, sqlite3_libversion, (void), ())

typedef struct {
#define PL_SQLITE_FIELD(ret, name, params, args) ret(*name) params;
    PL_SQLITE_FUNCTIONS(PL_SQLITE_FIELD)
#undef PL_SQLITE_FIELD
} PLSQLiteAPI;

// Filled by pl_sqlite_load; only read after it returned PL_LIBRARY_LOADED.
extern PLSQLiteAPI pl_sqlite;

#define PL_SQLITE_WRAPPER(ret, name, params, args) \
    static inline ret pl_##name params { return pl_sqlite.name args; }
PL_SQLITE_FUNCTIONS(PL_SQLITE_WRAPPER)
#undef PL_SQLITE_WRAPPER

// Binds a copy of `length` bytes of text or blob, empty (not NULL) when the pointer is NULL:
// SQLITE_TRANSIENT, a cast of -1 to a function pointer, is a macro Swift cannot spell.
int pl_sqlite_bind_text_copy(PLSQLiteStatement *statement, int index, const char *text, int length);
int pl_sqlite_bind_blob_copy(PLSQLiteStatement *statement, int index, const void *bytes, int length);

// Opens the library at `path` (PL_SQLITE_SONAME: through the loader's search path) and resolves
// every entry point above. Returns a PL_LIBRARY_* code of CLibraryLoader.h with its detail in
// `detail`; once per process, as the other loaders.
int pl_sqlite_load(const char *path, char *detail, size_t detail_size);

#endif
