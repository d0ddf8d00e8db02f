// The project's own declarations of the part of libmicrohttpd's C API (0.9.x and 1.x, ABI 12)
// that `plantleaf serve` calls, written from the library's manual. The library is opened at run
// time with dlopen, so building PlantLeaf never needs it and running without it is an error
// message only when `serve` is asked for.
#ifndef PLANTLEAF_CMICROHTTPD_H
#define PLANTLEAF_CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

// The soname Debian's libmicrohttpd12 (libmicrohttpd12t64 on Debian 13) installs.
#define PL_MICROHTTPD_SONAME "libmicrohttpd.so.12"

// enum MHD_Result: what the access handler and iterators return, and queueing reports.
#define kPLHTTPNo 0
#define kPLHTTPYes 1

// Value kinds for pl_MHD_lookup_connection_value (enum MHD_ValueKind).
#define kPLHTTPHeaderKind 1
#define kPLHTTPQueryKind 8

// How a response holds its buffer (enum MHD_ResponseMemoryMode): the library copies it.
#define kPLHTTPCopyBuffer 2

// A content reader's results besides a byte count: the end of the body, or a failure that
// closes the connection. (A body of unknown length is given the size UINT64_MAX.)
#define kPLHTTPReaderEnd -1
#define kPLHTTPReaderError -2

// How a request ended (enum MHD_RequestTerminationCode), passed to the completion callback.
#define kPLHTTPCompletedOK 0
#define kPLHTTPTimedOut 2

// Opaque handles; their layouts are the library's business.
typedef struct MHD_Daemon PLHTTPDaemon;
typedef struct MHD_Connection PLHTTPConnection;
typedef struct MHD_Response PLHTTPResponse;
typedef struct MHD_PostProcessor PLHTTPPostProcessor;

// Called once with the request's headers (*upload_size 0, *request_context NULL), once per
// piece of body (*upload_size bytes at upload; set it to what was consumed) and once more
// after the body (*upload_size 0). Queue the response on any call; kPLHTTPNo closes the
// connection.
typedef int (*PLHTTPAccessHandler)(void *context, PLHTTPConnection *connection, const char *url,
                                   const char *method, const char *version, const char *upload,
                                   size_t *upload_size, void **request_context);
// Called when a request ends, however it ended, to free what *request_context holds.
typedef void (*PLHTTPCompletedHandler)(void *context, PLHTTPConnection *connection,
                                       void **request_context, int termination);
// Called when a connection opens (code kPLHTTPConnectionStarted) and just before its socket is
// closed (kPLHTTPConnectionClosed), on the connection's own thread.
typedef void (*PLHTTPConnectionNotify)(void *context, PLHTTPConnection *connection, void **socket_context, int code);
#define kPLHTTPConnectionStarted 0
#define kPLHTTPConnectionClosed 1
// Called with each new connection's address, before the library takes it on: kPLHTTPYes takes
// it, kPLHTTPNo closes it at once. Runs on the listening thread, one connection after another,
// just before that connection's kPLHTTPConnectionStarted notice.
typedef int (*PLHTTPAcceptPolicy)(void *context, const struct sockaddr *address, socklen_t length);
// Fills up to `max` bytes at `buffer` for a response of unknown length; returns the count,
// kPLHTTPReaderEnd or kPLHTTPReaderError. With a thread per connection it may block.
typedef ssize_t (*PLHTTPContentReader)(void *context, uint64_t position, char *buffer, size_t max);
typedef void (*PLHTTPContentReaderFree)(void *context);
// One piece of a multipart/form-data field: `key` is the field's name, `offset` where in the
// field the piece starts.
typedef int (*PLHTTPPostIterator)(void *context, int kind, const char *key, const char *filename,
                                  const char *content_type, const char *transfer_encoding,
                                  const char *data, uint64_t offset, size_t size);
// One line the library logs (already formatted, without its newline), and where to send them:
// the caller owns the sink and keeps it until the daemon has stopped.
typedef void (*PLHTTPLogHandler)(void *context, const char *line);
typedef struct {
    PLHTTPLogHandler log;
    void *context;
} PLHTTPLogSink;

// X-macro list of every entry point PlantLeaf calls directly: return type, name, parameters,
// arguments. It generates the function-pointer table, the symbol table loaded into it and the
// pl_* wrappers.
#define PL_MICROHTTPD_FUNCTIONS(X) \
    X(void, MHD_stop_daemon, (PLHTTPDaemon *daemon), (daemon)) \
    X(PLHTTPResponse *, MHD_create_response_from_buffer, (size_t size, void *buffer, int mode), (size, buffer, mode)) \
    X(PLHTTPResponse *, MHD_create_response_from_callback, (uint64_t size, size_t block_size, PLHTTPContentReader reader, void *context, PLHTTPContentReaderFree free_context), (size, block_size, reader, context, free_context)) \
    X(int, MHD_add_response_header, (PLHTTPResponse *response, const char *name, const char *value), (response, name, value)) \
    X(int, MHD_queue_response, (PLHTTPConnection *connection, unsigned int status, PLHTTPResponse *response), (connection, status, response)) \
    X(void, MHD_destroy_response, (PLHTTPResponse *response), (response)) \
    X(const char *, MHD_lookup_connection_value, (PLHTTPConnection *connection, int kind, const char *key), (connection, kind, key)) \
    X(PLHTTPPostProcessor *, MHD_create_post_processor, (PLHTTPConnection *connection, size_t buffer_size, PLHTTPPostIterator iterator, void *context), (connection, buffer_size, iterator, context)) \
    X(int, MHD_post_process, (PLHTTPPostProcessor *processor, const char *data, size_t size), (processor, data, size)) \
    X(int, MHD_destroy_post_processor, (PLHTTPPostProcessor *processor), (processor))

typedef struct {
#define PL_MICROHTTPD_FIELD(ret, name, params, args) ret(*name) params;
    PL_MICROHTTPD_FUNCTIONS(PL_MICROHTTPD_FIELD)
#undef PL_MICROHTTPD_FIELD
} PLMicroHTTPDAPI;

// Filled by pl_microhttpd_load; only read after it returned PL_LIBRARY_LOADED.
extern PLMicroHTTPDAPI pl_microhttpd;

#define PL_MICROHTTPD_WRAPPER(ret, name, params, args) \
    static inline ret pl_##name params { return pl_microhttpd.name args; }
PL_MICROHTTPD_FUNCTIONS(PL_MICROHTTPD_WRAPPER)
#undef PL_MICROHTTPD_WRAPPER

// Opens the library at `path` (PL_MICROHTTPD_SONAME: through the loader's search path) and
// resolves every entry point above and the four the functions below call. Returns a PL_LIBRARY_*
// code of CLibraryLoader.h (never PL_LIBRARY_SET_UP_FAILED), with its detail in `detail`. Loading
// is done once per process: a second call returns the first result, with the first detail.
int pl_microhttpd_load(const char *path, char *detail, size_t detail_size);

// What the daemon is started with. The numbers are the library's own options: connections at
// once, seconds a connection may sit idle, bytes of memory per connection (headers and the
// read buffer), stack bytes of each connection's thread.
typedef struct {
    const struct sockaddr *address;  // IPv4 or IPv6, with the port (0: the system picks one)
    unsigned int connection_limit;
    unsigned int per_address_limit;   // 0: none
    unsigned int idle_timeout_seconds;
    size_t connection_memory;
    size_t thread_stack_size;
    const char *tls_key_pem;          // both NULL, or both a PEM text: HTTPS
    const char *tls_certificate_pem;
    PLHTTPAccessHandler handler;
    void *handler_context;
    PLHTTPCompletedHandler completed;
    PLHTTPConnectionNotify connection_notify;
    PLHTTPAcceptPolicy accept_policy;  // with handler_context as its context
    PLHTTPLogSink *log_sink;
} PLHTTPSettings;

// Starts a daemon with a thread per connection (poll, not select, so descriptors above 1024
// work), listening on settings->address. NULL when it could not start: the library logged why
// through settings->log_sink, and errno is what the system said, if anything.
PLHTTPDaemon *pl_http_start(const PLHTTPSettings *settings);

// The port the daemon listens on (the system's choice when the address had port 0); 0 if unknown.
uint16_t pl_http_bound_port(PLHTTPDaemon *daemon);

// The connection's socket descriptor, or -1.
int pl_http_connection_socket(PLHTTPConnection *connection);

// Whether this build of the library has HTTPS (it is built with GnuTLS or without).
int pl_http_supports_tls(void);

// How far a TCP socket's sending has got: the bytes its peer has acknowledged since it opened,
// and the bytes the system still holds for it, unsent or unacknowledged. 0, or an errno value
// (ENOTSUP when the kernel does not count acknowledged bytes).
int pl_socket_send_progress(int socket, uint64_t *acknowledged, uint64_t *waiting);

#endif
