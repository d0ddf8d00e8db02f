#define _GNU_SOURCE
#include "CLiteRt.h"

#include "CLibraryLoader.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PLLiteRtAPI pl_litert;

#define PL_LITERT_SYMBOL(ret, name, params, args) {#name, (void **)&pl_litert.name},
static const PLLibrarySymbol symbols[] = {PL_LITERT_FUNCTIONS(PL_LITERT_SYMBOL)};
#undef PL_LITERT_SYMBOL
static PLLibraryOnce once = PL_LIBRARY_ONCE_INIT;

int pl_litert_load(const char *path, char *detail, size_t detail_size) {
    return pl_library_load_once(&once, path, symbols, sizeof symbols / sizeof symbols[0], NULL, detail, detail_size);
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
