#define _GNU_SOURCE
#include "CLiteRt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PLLiteRtAPI pl_litert;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_tried = 0;
static int load_state = PL_LITERT_LOADED;  // once tried
static char load_detail[512];

int pl_litert_load(const char *path, char *detail, size_t detail_size) {
    pthread_mutex_lock(&load_lock);
    if (!load_tried) {
        load_tried = 1;
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(load_detail, sizeof load_detail, "%s", reason ? reason : "");
            load_state = PL_LITERT_NOT_OPENED;
        } else {
#define PL_LITERT_RESOLVE(ret, name, params, args) \
            if (load_state == PL_LITERT_LOADED) { \
                *(void **)(&pl_litert.name) = dlsym(handle, #name); \
                if (pl_litert.name == NULL) { \
                    snprintf(load_detail, sizeof load_detail, "%s", #name); \
                    load_state = PL_LITERT_SYMBOL_MISSING; \
                } \
            }
            PL_LITERT_FUNCTIONS(PL_LITERT_RESOLVE)
#undef PL_LITERT_RESOLVE
            if (load_state != PL_LITERT_LOADED) {
                memset(&pl_litert, 0, sizeof pl_litert);
                dlclose(handle);
            }
        }
    }
    if (detail != NULL && detail_size > 0) snprintf(detail, detail_size, "%s", load_detail);
    int result = load_state;
    pthread_mutex_unlock(&load_lock);
    return result;
}

static void free_payload(void *payload) { free(payload); }

LiteRtStatus pl_litert_add_toml_options(LiteRtOptions options, const char *identifier, const char *toml) {
    char *payload = strdup(toml);
    if (payload == NULL) return 2;  // kLiteRtStatusErrorMemoryAllocation
    LiteRtOpaqueOptions opaque = NULL;
    LiteRtStatus status = pl_litert.LiteRtCreateOpaqueOptions(identifier, payload, free_payload, &opaque);
    if (status != kPLStatusOk) {
        free(payload);
        return status;
    }
    return pl_litert.LiteRtAddOpaqueOptions(options, opaque);
}

static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;

void pl_stderr_capture_begin(PLStderrCapture *capture) {
    pthread_mutex_lock(&capture_lock);
    capture->saved_stderr = -1;
    fflush(stderr);
    capture->capture_file = tmpfile();
    if (capture->capture_file == NULL) return;
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(capture->capture_file), STDERR_FILENO) < 0) {
        if (saved >= 0) close(saved);
        fclose(capture->capture_file);
        capture->capture_file = NULL;
        return;
    }
    capture->saved_stderr = saved;
}

void pl_stderr_capture_end(PLStderrCapture *capture, int (*keep)(const char *line)) {
    if (capture->saved_stderr >= 0) {
        fflush(stderr);
        dup2(capture->saved_stderr, STDERR_FILENO);
        close(capture->saved_stderr);
        rewind(capture->capture_file);
        char line[1024];
        while (fgets(line, sizeof line, capture->capture_file) != NULL) {
            if (keep(line)) fputs(line, stderr);
        }
        fflush(stderr);
        fclose(capture->capture_file);
    }
    capture->saved_stderr = -1;
    capture->capture_file = NULL;
    pthread_mutex_unlock(&capture_lock);
}
