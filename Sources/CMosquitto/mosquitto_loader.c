#include "CMosquitto.h"

#include "CLibraryLoader.h"

PLMosquittoAPI pl_mosquitto;

#define PL_MOSQUITTO_SYMBOL(ret, name, params, args) {#name, (void **)&pl_mosquitto.name},
static const PLLibrarySymbol symbols[] = {PL_MOSQUITTO_FUNCTIONS(PL_MOSQUITTO_SYMBOL)};
#undef PL_MOSQUITTO_SYMBOL
static PLLibraryOnce once = PL_LIBRARY_ONCE_INIT;

// Process-wide set-up (sockets, OpenSSL) the library needs once before any client.
static bool set_up(void) { return pl_mosquitto.mosquitto_lib_init() == kPLMosquittoSuccess; }

int pl_mosquitto_load(const char *path, char *detail, size_t detail_size) {
    return pl_library_load_once(&once, path, symbols, sizeof symbols / sizeof symbols[0], set_up, detail, detail_size);
}
