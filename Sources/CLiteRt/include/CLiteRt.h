// The project's own declarations of the part of LiteRT's C API it calls. libLiteRt.so, taken
// from the ai-edge-litert 2.3.0 wheel (the one official build of LiteRT with a C API), ships no
// headers, so the names, signatures and struct layouts below were taken from LiteRT's C API and
// checked against that library: every out-struct was filled with a marker pattern before the
// call, and the library wrote exactly the sizes asserted below. The library is opened at run
// time with dlopen, so building PlantLeaf never needs it.
#ifndef PLANTLEAF_CLITERT_H
#define PLANTLEAF_CLITERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

// Every LiteRT enum is a 4-byte int; plain typedefs import into Swift as Int32 (C enums import
// awkwardly). The element type numbers live in Swift's ElementType. Failed calls return other
// statuses, which RuntimeError names: the library does not export LiteRtGetStatusString.
typedef int32_t LiteRtStatus;
typedef int32_t LiteRtElementType;
typedef size_t LiteRtParamIndex;

enum {
    kPLStatusOk = 0,
    kPLTensorTypeRanked = 0,           // not 1, unranked
    kPLQuantizationPerTensor = 1,      // one scale and zero point for the whole tensor
    kPLAcceleratorCPU = 1,             // a bitmask: 2 GPU, 4 NPU
    kPLTensorBufferTypeHostMemory = 1,
    kPLLockModeRead = 0,
    kPLLockModeWrite = 1,
    // Environment option tags. 24: the accelerators to register at start-up (a bitmask; CPU
    // alone stops the library probing for four GPU libraries). 25: the least severe log
    // message printed (-1 debug ... 3 error, 4 silent).
    kPLEnvOptionAutoRegisterAccelerators = 24,
    kPLEnvOptionMinLogSeverity = 25,
    kPLAnyTypeInt = 2,                 // LiteRtAny's tag for int_value
    kPLLogSeverityError = 3,
};

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;
typedef struct LiteRtProfilerT *LiteRtProfiler;

// 68 bytes: bits 0-6 of the first word are the rank, bit 7 says strides are present.
typedef struct {
    uint32_t rank_and_flags;
    int32_t dimensions[8];   // negative = left open by the model (a -1 batch); compiling resolves it
    uint32_t strides[8];
} LiteRtLayout;

typedef struct {
    LiteRtElementType element_type;
    LiteRtLayout layout;
} LiteRtRankedTensorType;

typedef struct {
    float scale;
    int64_t zero_point;
} LiteRtQuantizationPerTensor;

typedef struct {
    int32_t type;
    union {
        bool bool_value;
        int64_t int_value;
        double real_value;
        const char *str_value;
        const void *ptr_value;
    };
} LiteRtAny;

typedef struct {
    int32_t tag;
    LiteRtAny value;
} LiteRtEnvOption;

// One profiler event as libLiteRt.so copies it out (its C++ struct, whose memory records are
// tflite::profiling::memory::MemoryUsage: three 8-byte fields, always 0 on this path). The
// library was seen to write exactly 104 bytes per event (checked with a marker fill).
typedef struct {
    int64_t footprint_kb;
    size_t total_allocated_bytes;
    size_t in_use_allocated_bytes;
} PLProfilerMemoryUsage;

typedef struct {
    const char *tag;          // the op's name; owned by the profiler, valid until it is reset
    int32_t event_type;       // kPLProfilerEvent* below
    uint64_t start_us;
    uint64_t elapsed_us;
    PLProfilerMemoryUsage begin_memory;
    PLProfilerMemoryUsage end_memory;
    uint64_t metadata1;       // for operator events: the node index
    uint64_t metadata2;
    int32_t source;
} PLProfiledEvent;

enum {
    kPLProfilerEventOperator = 2,          // an op run by the TFLite interpreter itself
    kPLProfilerEventDelegatedOperator = 8, // an op run inside XNNPACK, profiled per op
};

_Static_assert(sizeof(PLProfiledEvent) == 104, "a profiler event is 104 bytes in libLiteRt.so");
_Static_assert(sizeof(LiteRtLayout) == 68, "LiteRtLayout is 68 bytes in libLiteRt.so");
_Static_assert(sizeof(LiteRtRankedTensorType) == 72, "LiteRtRankedTensorType is 72 bytes");
_Static_assert(sizeof(LiteRtQuantizationPerTensor) == 16, "per-tensor quantization is 16 bytes");
_Static_assert(sizeof(LiteRtAny) == 16 && sizeof(LiteRtEnvOption) == 24, "LiteRtEnvOption is 24 bytes");

static inline uint32_t pl_layout_rank(const LiteRtLayout *layout) { return layout->rank_and_flags & 0x7f; }

// X-macro list of every entry point PlantLeaf calls: return type, name, parameters, arguments.
// It generates the function-pointer table, the symbol table loaded into it and the pl_*
// call-through wrappers.
// Every name is required when the library is loaded, so only names that are called belong here.
// Ownership: LiteRtCreateModelFromBuffer does not copy the buffer, which must outlive the model;
// LiteRtAddOpaqueOptions takes the opaque options over; the non-strict input resize is the one
// that resizes a fixed [1, 224, 224, 3] input (the strict one wants -1 dimensions in the model);
// the destroy order that ran clean under valgrind is buffers, compiled model, options, model,
// environment.
#define PL_LITERT_FUNCTIONS(X) \
    X(LiteRtStatus, LiteRtCreateEnvironment, (int count, const LiteRtEnvOption *options, LiteRtEnvironment *env), (count, options, env)) \
    X(void, LiteRtDestroyEnvironment, (LiteRtEnvironment env), (env)) \
    X(LiteRtStatus, LiteRtCreateModelFromBuffer, (LiteRtEnvironment env, const void *data, size_t size, LiteRtModel *model), (env, data, size, model)) \
    X(void, LiteRtDestroyModel, (LiteRtModel model), (model)) \
    X(LiteRtStatus, LiteRtGetModelSignature, (LiteRtModel model, LiteRtParamIndex index, LiteRtSignature *signature), (model, index, signature)) \
    X(LiteRtStatus, LiteRtGetNumSignatureInputs, (LiteRtSignature signature, LiteRtParamIndex *count), (signature, count)) \
    X(LiteRtStatus, LiteRtGetNumSignatureOutputs, (LiteRtSignature signature, LiteRtParamIndex *count), (signature, count)) \
    X(LiteRtStatus, LiteRtGetSignatureInputTensorByIndex, (LiteRtSignature signature, LiteRtParamIndex index, LiteRtTensor *tensor), (signature, index, tensor)) \
    X(LiteRtStatus, LiteRtGetSignatureOutputTensorByIndex, (LiteRtSignature signature, LiteRtParamIndex index, LiteRtTensor *tensor), (signature, index, tensor)) \
    X(LiteRtStatus, LiteRtGetTensorName, (LiteRtTensor tensor, const char **name), (tensor, name)) \
    X(LiteRtStatus, LiteRtGetTensorTypeId, (LiteRtTensor tensor, int32_t *type_id), (tensor, type_id)) \
    X(LiteRtStatus, LiteRtGetRankedTensorType, (LiteRtTensor tensor, LiteRtRankedTensorType *type), (tensor, type)) \
    X(LiteRtStatus, LiteRtGetQuantizationTypeId, (LiteRtTensor tensor, int32_t *type_id), (tensor, type_id)) \
    X(LiteRtStatus, LiteRtGetPerTensorQuantization, (LiteRtTensor tensor, LiteRtQuantizationPerTensor *quantization), (tensor, quantization)) \
    X(LiteRtStatus, LiteRtCreateOptions, (LiteRtOptions *options), (options)) \
    X(void, LiteRtDestroyOptions, (LiteRtOptions options), (options)) \
    X(LiteRtStatus, LiteRtSetOptionsHardwareAccelerators, (LiteRtOptions options, int32_t accelerators), (options, accelerators)) \
    X(LiteRtStatus, LiteRtCreateOpaqueOptions, (const char *identifier, void *payload, void (*destructor)(void *), LiteRtOpaqueOptions *options), (identifier, payload, destructor, options)) \
    X(LiteRtStatus, LiteRtAddOpaqueOptions, (LiteRtOptions options, LiteRtOpaqueOptions opaque), (options, opaque)) \
    X(LiteRtStatus, LiteRtCreateCompiledModel, (LiteRtEnvironment env, LiteRtModel model, LiteRtOptions options, LiteRtCompiledModel *compiled), (env, model, options, compiled)) \
    X(void, LiteRtDestroyCompiledModel, (LiteRtCompiledModel compiled), (compiled)) \
    X(LiteRtStatus, LiteRtGetCompiledModelInputTensorLayout, (LiteRtCompiledModel compiled, LiteRtParamIndex signature, LiteRtParamIndex index, LiteRtLayout *layout), (compiled, signature, index, layout)) \
    X(LiteRtStatus, LiteRtCompiledModelResizeInputTensorNonStrict, (LiteRtCompiledModel compiled, LiteRtParamIndex signature, LiteRtParamIndex index, const int *dims, size_t dims_size), (compiled, signature, index, dims, dims_size)) \
    X(LiteRtStatus, LiteRtGetCompiledModelOutputTensorLayouts, (LiteRtCompiledModel compiled, LiteRtParamIndex signature, size_t count, LiteRtLayout *layouts, bool update_allocation), (compiled, signature, count, layouts, update_allocation)) \
    X(LiteRtStatus, LiteRtRunCompiledModel, (LiteRtCompiledModel compiled, LiteRtParamIndex signature, size_t input_count, LiteRtTensorBuffer *inputs, size_t output_count, LiteRtTensorBuffer *outputs), (compiled, signature, input_count, inputs, output_count, outputs)) \
    X(LiteRtStatus, LiteRtCreateManagedTensorBuffer, (LiteRtEnvironment env, int32_t buffer_type, const LiteRtRankedTensorType *type, size_t size, LiteRtTensorBuffer *buffer), (env, buffer_type, type, size, buffer)) \
    X(LiteRtStatus, LiteRtLockTensorBuffer, (LiteRtTensorBuffer buffer, void **host_memory, int32_t mode), (buffer, host_memory, mode)) \
    X(LiteRtStatus, LiteRtUnlockTensorBuffer, (LiteRtTensorBuffer buffer), (buffer)) \
    X(void, LiteRtDestroyTensorBuffer, (LiteRtTensorBuffer buffer), (buffer)) \
    X(LiteRtStatus, LiteRtCompiledModelGetProfiler, (LiteRtCompiledModel compiled, LiteRtProfiler *profiler), (compiled, profiler)) \
    X(LiteRtStatus, LiteRtResetProfiler, (LiteRtProfiler profiler), (profiler)) \
    X(LiteRtStatus, LiteRtStartProfiler, (LiteRtProfiler profiler), (profiler)) \
    X(LiteRtStatus, LiteRtStopProfiler, (LiteRtProfiler profiler), (profiler)) \
    X(LiteRtStatus, LiteRtGetNumProfilerEvents, (LiteRtProfiler profiler, int *count), (profiler, count)) \
    X(LiteRtStatus, LiteRtGetProfilerEvents, (LiteRtProfiler profiler, int count, PLProfiledEvent *events), (profiler, count, events))

typedef struct {
#define PL_LITERT_FIELD(ret, name, params, args) ret(*name) params;
    PL_LITERT_FUNCTIONS(PL_LITERT_FIELD)
#undef PL_LITERT_FIELD
} PLLiteRtAPI;

// Filled by pl_litert_load; only read after it returned PL_LIBRARY_LOADED.
extern PLLiteRtAPI pl_litert;

#define PL_LITERT_WRAPPER(ret, name, params, args) \
    static inline ret pl_##name params { return pl_litert.name args; }
PL_LITERT_FUNCTIONS(PL_LITERT_WRAPPER)
#undef PL_LITERT_WRAPPER

// Opens the library at `path` and resolves every entry point above. Returns a PL_LIBRARY_* code
// of CLibraryLoader.h (never PL_LIBRARY_SET_UP_FAILED: LiteRT needs no process-wide set-up), with
// its detail in `detail`. Loading is done once per process: a second call with any path returns
// the first result, with the first detail.
int pl_litert_load(const char *path, char *detail, size_t detail_size);

// Adds opaque options `identifier` ("xnnpack", "runtime_options_string") holding a copy of the
// TOML text `toml` to `options`: the CPU option builders are not exported, and these payloads are
// what the library reads (e.g. "num_threads = 2\n", "enable_profiling = true\n").
LiteRtStatus pl_litert_add_toml_options(LiteRtOptions options, const char *identifier, const char *toml);

// The runtime prints "INFO: ..." lines on stderr that no option silences. Between begin and end,
// fd 2 of the whole process goes to a temporary file; end restores it and hands each captured
// line (with its newline, at most 1023 bytes a piece) to `keep`, writing to stderr the lines it
// returns non-zero for. Captures never overlap (begin waits for the previous end), and the state is
// the caller's, but anything another thread writes to stderr meanwhile is delayed until end,
// so callers capture while no other thread is writing.
typedef struct {
    int saved_stderr;   // -1: nothing captured, end only releases the lock
    FILE *capture_file;
} PLStderrCapture;
void pl_stderr_capture_begin(PLStderrCapture *capture);
void pl_stderr_capture_end(PLStderrCapture *capture, int (*keep)(const char *line));

#endif
