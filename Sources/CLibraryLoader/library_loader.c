#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

static void clear_slots(const PLLibrarySymbol *symbols, size_t count) {
    for (size_t i = 0; i < count; i++) *symbols[i].slot = NULL;
}

static int load(PLLibraryOnce *once, const char *path, const PLLibrarySymbol *symbols, size_t count,
                bool (*set_up)(void)) {
    // RTLD_NOW: a library whose own dependencies do not resolve fails here, with dlerror's words,
    // not later with a crash in the middle of a call. RTLD_LOCAL: its symbols stay out of the
    // global namespace, so libraries loaded after it cannot bind to them by accident.
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(once->detail, sizeof once->detail, "%s", reason ? reason : "");
        return PL_LIBRARY_NOT_OPENED;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(handle, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            snprintf(once->detail, sizeof once->detail, "%s", symbols[i].name);
            clear_slots(symbols, count);
            dlclose(handle);
            return PL_LIBRARY_SYMBOL_MISSING;
        }
    }
    if (set_up != NULL && !set_up()) {
        clear_slots(symbols, count);
        dlclose(handle);
        return PL_LIBRARY_SET_UP_FAILED;
    }
    return PL_LIBRARY_LOADED;
}

int pl_library_load_once(PLLibraryOnce *once, const char *path, const PLLibrarySymbol *symbols, size_t count,
                         bool (*set_up)(void), char *detail, size_t detail_size) {
    pthread_mutex_lock(&once->lock);
    if (!once->tried) {
        once->tried = true;
        once->state = load(once, path, symbols, count, set_up);
    }
    if (detail != NULL && detail_size > 0) snprintf(detail, detail_size, "%s", once->detail);
    int state = once->state;
    pthread_mutex_unlock(&once->lock);
    return state;
}
