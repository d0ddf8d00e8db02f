#include "CMosquitto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

PLMosquittoAPI pl_mosquitto;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_state = 1;  // 1 not tried, 0 loaded, -1 not openable, -2 openable but unusable
static char load_error[512];

int pl_mosquitto_load(char *error, size_t error_size) {
    pthread_mutex_lock(&load_lock);
    if (load_state == 1) {
        void *handle = dlopen(PL_MOSQUITTO_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(load_error, sizeof load_error, "%s", reason ? reason : "dlopen failed");
            load_state = -1;
        } else {
            load_state = 0;
#define PL_MOSQUITTO_RESOLVE(ret, name, params, args) \
            if (load_state == 0) { \
                *(void **)(&pl_mosquitto.name) = dlsym(handle, #name); \
                if (pl_mosquitto.name == NULL) { \
                    snprintf(load_error, sizeof load_error, "%s does not export %s", PL_MOSQUITTO_SONAME, #name); \
                    load_state = -2; \
                } \
            }
            PL_MOSQUITTO_FUNCTIONS(PL_MOSQUITTO_RESOLVE)
#undef PL_MOSQUITTO_RESOLVE
            // Process-wide set-up (sockets, OpenSSL) the library needs once before any client.
            if (load_state == 0 && pl_mosquitto.mosquitto_lib_init() != kPLMosquittoSuccess) {
                snprintf(load_error, sizeof load_error, "mosquitto_lib_init failed");
                load_state = -2;
            }
            if (load_state != 0) {
                memset(&pl_mosquitto, 0, sizeof pl_mosquitto);
                dlclose(handle);
            }
        }
    }
    int result = load_state;
    if (result != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", load_error);
    pthread_mutex_unlock(&load_lock);
    return result;
}
