// The project's own declarations of the part of the libmosquitto 1.6/2.0 C API that PlantLeaf's
// MQTT publisher calls, written from the documented API (mosquitto.org/api). The library is opened
// at run time with dlopen, so building PlantLeaf never needs it and running without it is an
// error message only when MQTT is asked for.
#ifndef PLANTLEAF_CMOSQUITTO_H
#define PLANTLEAF_CMOSQUITTO_H

#include <stdbool.h>
#include <stddef.h>

// The soname Debian's libmosquitto1 installs (ABI 1 covers libmosquitto 1.x and 2.x).
#define PL_MOSQUITTO_SONAME "libmosquitto.so.1"

// Return codes of the functions below (mosquitto.h's enum mosq_err_t) that PlantLeaf tells
// apart. Macros rather than an enum so that Swift sees them as Int32, the functions' type.
#define kPLMosquittoSuccess 0
#define kPLMosquittoConnectionRefused 5
#define kPLMosquittoTLS 8
#define kPLMosquittoErrno 14
#define kPLMosquittoLookup 15   // MOSQ_ERR_EAI: errno then holds getaddrinfo's EAI_* code

// The log level of errors (mosquitto.h's MOSQ_LOG_ERR): the only lines that say why TLS failed.
#define kPLMosquittoLogError 0x08
// The log level of debug lines (MOSQ_LOG_DEBUG): the only sign of a PUBLISH the broker sent
// with QoS 2, which libmosquitto keeps until the broker releases it and only then hands on.
#define kPLMosquittoLogDebug 0x10

// CONNACK return codes of MQTT 3.1.1 (section 3.2.2.3), passed to the connect callback.
#define kPLConnackAccepted 0
#define kPLConnackBadProtocolVersion 1
#define kPLConnackIdentifierRejected 2
#define kPLConnackServerUnavailable 3
#define kPLConnackBadUserNameOrPassword 4
#define kPLConnackNotAuthorised 5

// The client handle; its layout is the library's own business.
typedef struct mosquitto PLMosquitto;

// on_connect gets the CONNACK code, on_disconnect 0 after mosquitto_disconnect and an error
// code otherwise, on_publish the message id once the broker acknowledged it (QoS 1: PUBACK).
typedef void (*PLMosquittoConnectCallback)(PLMosquitto *client, void *context, int code);
typedef void (*PLMosquittoDisconnectCallback)(PLMosquitto *client, void *context, int code);
typedef void (*PLMosquittoPublishCallback)(PLMosquitto *client, void *context, int message_id);
// on_log gets every line libmosquitto logs, with its level (a kPLMosquittoLog* bit).
typedef void (*PLMosquittoLogCallback)(PLMosquitto *client, void *context, int level, const char *line);
typedef int (*PLMosquittoPasswordCallback)(char *buffer, int size, int rwflag, void *context);

// X-macro list of every entry point PlantLeaf uses: return type, name, parameters, arguments.
// It generates the function-pointer table, the symbol table loaded into it and the pl_*
// call-through wrappers.
#define PL_MOSQUITTO_FUNCTIONS(X) \
    X(int, mosquitto_lib_init, (void), ()) \
    X(PLMosquitto *, mosquitto_new, (const char *id, bool clean_session, void *context), (id, clean_session, context)) \
    X(void, mosquitto_destroy, (PLMosquitto *client), (client)) \
    X(void, mosquitto_user_data_set, (PLMosquitto *client, void *context), (client, context)) \
    X(int, mosquitto_will_set, (PLMosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain), (client, topic, length, payload, qos, retain)) \
    X(int, mosquitto_username_pw_set, (PLMosquitto *client, const char *user, const char *password), (client, user, password)) \
    X(int, mosquitto_tls_set, (PLMosquitto *client, const char *ca_file, const char *ca_path, const char *cert_file, const char *key_file, PLMosquittoPasswordCallback key_password), (client, ca_file, ca_path, cert_file, key_file, key_password)) \
    X(int, mosquitto_threaded_set, (PLMosquitto *client, bool threaded), (client, threaded)) \
    X(int, mosquitto_max_inflight_messages_set, (PLMosquitto *client, unsigned int count), (client, count)) \
    X(void, mosquitto_connect_callback_set, (PLMosquitto *client, PLMosquittoConnectCallback callback), (client, callback)) \
    X(void, mosquitto_disconnect_callback_set, (PLMosquitto *client, PLMosquittoDisconnectCallback callback), (client, callback)) \
    X(void, mosquitto_publish_callback_set, (PLMosquitto *client, PLMosquittoPublishCallback callback), (client, callback)) \
    X(void, mosquitto_log_callback_set, (PLMosquitto *client, PLMosquittoLogCallback callback), (client, callback)) \
    X(int, mosquitto_connect, (PLMosquitto *client, const char *host, int port, int keepalive), (client, host, port, keepalive)) \
    X(int, mosquitto_loop, (PLMosquitto *client, int timeout_ms, int max_packets), (client, timeout_ms, max_packets)) \
    X(int, mosquitto_publish, (PLMosquitto *client, int *message_id, const char *topic, int length, const void *payload, int qos, bool retain), (client, message_id, topic, length, payload, qos, retain)) \
    X(int, mosquitto_disconnect, (PLMosquitto *client), (client)) \
    X(const char *, mosquitto_strerror, (int code), (code))

typedef struct {
#define PL_MOSQUITTO_FIELD(ret, name, params, args) ret(*name) params;
    PL_MOSQUITTO_FUNCTIONS(PL_MOSQUITTO_FIELD)
#undef PL_MOSQUITTO_FIELD
} PLMosquittoAPI;

// Filled by pl_mosquitto_load; only read after it returned PL_LIBRARY_LOADED.
extern PLMosquittoAPI pl_mosquitto;

#define PL_MOSQUITTO_WRAPPER(ret, name, params, args) \
    static inline ret pl_##name params { return pl_mosquitto.name args; }
PL_MOSQUITTO_FUNCTIONS(PL_MOSQUITTO_WRAPPER)
#undef PL_MOSQUITTO_WRAPPER

// Opens the library at `path` (PL_MOSQUITTO_SONAME: through the loader's search path), resolves
// every entry point above and calls mosquitto_lib_init. Returns a PL_LIBRARY_* code of
// CLibraryLoader.h, PL_LIBRARY_SET_UP_FAILED when mosquitto_lib_init failed, with its detail in
// `detail`. Loading is done once per process: a second call with any path returns the first
// result, with the first detail.
int pl_mosquitto_load(const char *path, char *detail, size_t detail_size);

#endif
