#include "CMosquitto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

PLMosquittoAPI pl_mosquitto;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_tried = 0;
static int load_state = PL_MOSQUITTO_LOADED;  // once tried
static char load_detail[512];

int pl_mosquitto_load(const char *path, char *detail, size_t detail_size) {
    pthread_mutex_lock(&load_lock);
    if (!load_tried) {
        load_tried = 1;
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(load_detail, sizeof load_detail, "%s", reason ? reason : "");
            load_state = PL_MOSQUITTO_NOT_OPENED;
        } else {
#define PL_MOSQUITTO_RESOLVE(ret, name, params, args) \
            if (load_state == PL_MOSQUITTO_LOADED) { \
                *(void **)(&pl_mosquitto.name) = dlsym(handle, #name); \
                if (pl_mosquitto.name == NULL) { \
                    snprintf(load_detail, sizeof load_detail, "%s", #name); \
                    load_state = PL_MOSQUITTO_SYMBOL_MISSING; \
                } \
            }
            PL_MOSQUITTO_FUNCTIONS(PL_MOSQUITTO_RESOLVE)
#undef PL_MOSQUITTO_RESOLVE
            // Process-wide set-up (sockets, OpenSSL) the library needs once before any client.
            if (load_state == PL_MOSQUITTO_LOADED && pl_mosquitto.mosquitto_lib_init() != kPLMosquittoSuccess)
                load_state = PL_MOSQUITTO_INIT_FAILED;
            if (load_state != PL_MOSQUITTO_LOADED) {
                memset(&pl_mosquitto, 0, sizeof pl_mosquitto);
                dlclose(handle);
            }
        }
    }
    if (detail != NULL && detail_size > 0) snprintf(detail, detail_size, "%s", load_detail);
    int result = load_state;
    pthread_mutex_unlock(&load_lock);
    return result;
}
