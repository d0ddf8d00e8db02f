#include "CMicroHTTPD.h"

#include "CLibraryLoader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

PLMicroHTTPDAPI pl_microhttpd;

// The daemon's flags and option names (microhttpd.h's MHD_FLAG and MHD_OPTION values).
enum {
    FLAG_ERROR_LOG = 1,
    FLAG_TLS = 2,
    FLAG_THREAD_PER_CONNECTION = 4,
    FLAG_INTERNAL_POLLING_THREAD = 8,
    FLAG_IPV6 = 16,
    FLAG_POLL = 64,
};
enum {
    OPTION_END = 0,
    OPTION_CONNECTION_MEMORY_LIMIT = 1,
    OPTION_CONNECTION_LIMIT = 2,
    OPTION_CONNECTION_TIMEOUT = 3,
    OPTION_NOTIFY_COMPLETED = 4,
    OPTION_PER_IP_CONNECTION_LIMIT = 5,
    OPTION_SOCK_ADDR = 6,
    OPTION_HTTPS_MEM_KEY = 8,
    OPTION_HTTPS_MEM_CERT = 9,
    OPTION_EXTERNAL_LOGGER = 13,
    OPTION_ARRAY = 15,
    OPTION_THREAD_STACK_SIZE = 19,
    OPTION_NOTIFY_CONNECTION = 27,
};
enum { INFO_BIND_PORT = 6, INFO_CONNECTION_FD = 6, FEATURE_TLS = 2 };

// microhttpd.h's struct MHD_OptionItem.
typedef struct {
    int option;
    intptr_t value;
    void *pointer;
} OptionItem;

// The entry points Swift does not call itself: MHD_start_daemon and the two info queries are
// variadic, and the feature query is only needed here.
typedef PLHTTPDaemon *(*StartDaemon)(unsigned int flags, uint16_t port, PLHTTPAcceptPolicy accept_policy, void *accept_context,
                                     PLHTTPAccessHandler handler, void *handler_context, ...);
typedef const void *(*DaemonInfo)(PLHTTPDaemon *daemon, int kind, ...);
typedef const void *(*ConnectionInfo)(PLHTTPConnection *connection, int kind, ...);
typedef int (*FeatureSupported)(int feature);
static StartDaemon start_daemon;
static DaemonInfo daemon_info;
static ConnectionInfo connection_info;
static FeatureSupported feature_supported;

#define PL_MICROHTTPD_SYMBOL(ret, name, params, args) {#name, (void **)&pl_microhttpd.name},
static const PLLibrarySymbol symbols[] = {
    PL_MICROHTTPD_FUNCTIONS(PL_MICROHTTPD_SYMBOL)
    {"MHD_start_daemon", (void **)&start_daemon},
    {"MHD_get_daemon_info", (void **)&daemon_info},
    {"MHD_get_connection_info", (void **)&connection_info},
    {"MHD_is_feature_supported", (void **)&feature_supported},
};
#undef PL_MICROHTTPD_SYMBOL
static PLLibraryOnce once = PL_LIBRARY_ONCE_INIT;

int pl_microhttpd_load(const char *path, char *detail, size_t detail_size) {
    return pl_library_load_once(&once, path, symbols, sizeof symbols / sizeof symbols[0], NULL, detail, detail_size);
}

// The library logs printf-style with a va_list, which Swift cannot take: format it here.
static void log_line(void *context, const char *format, va_list arguments) {
    const PLHTTPLogSink *sink = context;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    sink->log(sink->context, line);
}

PLHTTPDaemon *pl_http_start(const PLHTTPSettings *settings) {
    OptionItem options[13];
    int count = 0;
    // The logger first: the library logs through its own until it has read this option.
    options[count++] = (OptionItem){OPTION_EXTERNAL_LOGGER, (intptr_t)log_line, settings->log_sink};
    options[count++] = (OptionItem){OPTION_SOCK_ADDR, 0, (void *)settings->address};
    options[count++] = (OptionItem){OPTION_CONNECTION_LIMIT, (intptr_t)settings->connection_limit, NULL};
    options[count++] = (OptionItem){OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)settings->per_address_limit, NULL};
    options[count++] = (OptionItem){OPTION_CONNECTION_TIMEOUT, (intptr_t)settings->idle_timeout_seconds, NULL};
    options[count++] = (OptionItem){OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory, NULL};
    options[count++] = (OptionItem){OPTION_THREAD_STACK_SIZE, (intptr_t)settings->thread_stack_size, NULL};
    options[count++] = (OptionItem){OPTION_NOTIFY_COMPLETED, (intptr_t)settings->completed, settings->handler_context};
    options[count++] = (OptionItem){OPTION_NOTIFY_CONNECTION, (intptr_t)settings->connection_notify, settings->handler_context};
    unsigned int flags = FLAG_ERROR_LOG | FLAG_THREAD_PER_CONNECTION | FLAG_INTERNAL_POLLING_THREAD | FLAG_POLL;
    if (settings->address->sa_family == AF_INET6) flags |= FLAG_IPV6;
    if (settings->tls_key_pem != NULL && settings->tls_certificate_pem != NULL) {
        flags |= FLAG_TLS;
        options[count++] = (OptionItem){OPTION_HTTPS_MEM_KEY, 0, (void *)settings->tls_key_pem};
        options[count++] = (OptionItem){OPTION_HTTPS_MEM_CERT, 0, (void *)settings->tls_certificate_pem};
    }
    options[count++] = (OptionItem){OPTION_END, 0, NULL};
    return start_daemon(flags, 0, settings->accept_policy, settings->handler_context, settings->handler, settings->handler_context,
                        OPTION_ARRAY, options, OPTION_END);
}

uint16_t pl_http_bound_port(PLHTTPDaemon *daemon) {
    const uint16_t *port = daemon_info(daemon, INFO_BIND_PORT);
    return port == NULL ? 0 : *port;
}

int pl_http_connection_socket(PLHTTPConnection *connection) {
    const int *descriptor = connection_info(connection, INFO_CONNECTION_FD);
    return descriptor == NULL ? -1 : *descriptor;
}

int pl_http_supports_tls(void) { return feature_supported(FEATURE_TLS) == 1; }
