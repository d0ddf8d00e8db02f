// Opening a shared library at run time and filling a table of its entry points, once per process:
// what CLiteRt, CMosquitto and CMicroHTTPD each do for the library they declare. This side
// reports what happened as a code and a fact (dlerror's text, the missing name); the Swift
// module over each library decides what that means and words the error.
#ifndef PLANTLEAF_CLIBRARYLOADER_H
#define PLANTLEAF_CLIBRARYLOADER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

// What a load found. The detail that goes with each code is said beside it.
enum {
    PL_LIBRARY_LOADED = 0,
    PL_LIBRARY_NOT_OPENED = 1,      // dlopen refused the file: detail is dlerror()'s text (empty if none)
    PL_LIBRARY_SYMBOL_MISSING = 2,  // detail is the first name of the table the library does not export
    PL_LIBRARY_SET_UP_FAILED = 3,   // the library's own process-wide set-up refused: detail is empty
};

// One entry point: its exported name, and the function pointer dlsym's address is stored in.
typedef struct {
    const char *name;
    void **slot;
} PLLibrarySymbol;

// The outcome of one library's load, kept for the life of the process. One static instance per
// library, set with PL_LIBRARY_ONCE_INIT; only pl_library_load_once reads or writes it.
typedef struct {
    pthread_mutex_t lock;
    bool tried;
    int state;
    char detail[512];
} PLLibraryOnce;

#define PL_LIBRARY_ONCE_INIT {PTHREAD_MUTEX_INITIALIZER, false, PL_LIBRARY_LOADED, ""}

// Opens the library at `path` (a name without a slash goes through the loader's search path),
// stores the address of each of the `count` symbols in its slot, then calls `set_up` (NULL for
// none) to ask the library's process-wide set-up, which returns true when it succeeded. On any
// failure every slot is set back to NULL and the library is closed. Returns a PL_LIBRARY_* code
// and copies its detail into `detail`. The first call does the work; every later call with the
// same `once`, whatever its other arguments, returns the first result with the first detail.
int pl_library_load_once(PLLibraryOnce *once, const char *path, const PLLibrarySymbol *symbols, size_t count,
                         bool (*set_up)(void), char *detail, size_t detail_size);

#endif
