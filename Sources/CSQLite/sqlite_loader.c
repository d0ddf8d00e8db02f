#include "CSQLite.h"

#include "CLibraryLoader.h"

PLSQLiteAPI pl_sqlite;

#define PL_SQLITE_SYMBOL(ret, name, params, args) {#name, (void **)&pl_sqlite.name},
static const PLLibrarySymbol symbols[] = {PL_SQLITE_FUNCTIONS(PL_SQLITE_SYMBOL)};
#undef PL_SQLITE_SYMBOL
static PLLibraryOnce once = PL_LIBRARY_ONCE_INIT;

// sqlite3.h's SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
#define PL_SQLITE_TRANSIENT ((void (*)(void *))-1)

int pl_sqlite_bind_text_copy(PLSQLiteStatement *statement, int index, const char *text, int length) {
    // A NULL pointer would bind SQL NULL; an empty Swift array has none.
    return pl_sqlite.sqlite3_bind_text(statement, index, text ? text : "", length, PL_SQLITE_TRANSIENT);
}

int pl_sqlite_bind_blob_copy(PLSQLiteStatement *statement, int index, const void *bytes, int length) {
    return pl_sqlite.sqlite3_bind_blob(statement, index, bytes ? bytes : "", length, PL_SQLITE_TRANSIENT);
}

int pl_sqlite_load(const char *path, char *detail, size_t detail_size) {
    return pl_library_load_once(&once, path, symbols, sizeof symbols / sizeof symbols[0], NULL, detail, detail_size);
}
