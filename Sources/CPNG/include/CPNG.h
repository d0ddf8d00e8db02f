// libpng behind plain functions: libpng reports errors by longjmp, which Swift cannot catch,
// so every libpng call runs here under setjmp and failures come back as a status + the facts
// behind it. The words are the caller's.
#ifndef PLANTLEAF_CPNG_H
#define PLANTLEAF_CPNG_H

#include <stddef.h>
#include <stdint.h>

enum {
    PL_PNG_OK = 0,
    PL_PNG_CORRUPT = 1,      // libpng refused the data (bad signature, CRC, truncated ...)
    PL_PNG_TOO_LARGE = 2,    // width x height above the caller's limit (width and height set); nothing allocated
    PL_PNG_NO_MEMORY = 3,
    PL_PNG_TRUNCATED = 4,    // the data ended before the image did
    PL_PNG_OVER_BUDGET = 5,  // a chunk or the image needs more memory than the budget allows; the fact says which
    PL_PNG_CANCELLED = 6,    // the sink's begin returned non-zero
};

// Which facts of a PLPNGResult explain a failed decode (its `fact`).
enum {
    PL_PNG_FACT_NONE = 0,              // the status says it all
    PL_PNG_FACT_LIBPNG = 1,            // libpng_message: libpng's own error
    PL_PNG_FACT_SIGNATURE = 2,         // the data does not start with PNG's signature
    PL_PNG_FACT_CHUNK_SIZE = 3,        // chunk_type declares chunk_length bytes, above max_chunk_bytes
    PL_PNG_FACT_INTERLACED_IMAGE = 4,  // the interlaced width x height RGB image is above max_image_bytes
    PL_PNG_FACT_ROW_LAYOUT = 5,        // libpng's rows after the transforms are not width x 3 bytes
    PL_PNG_FACT_END_OF_DATA = 6,       // the data ended before the last row
};

// What one decode may cost. Chunks other than IDAT are read whole into memory, so each is held
// to max_chunk_bytes (checked against the lengths the file declares, before libpng sees them,
// and passed to png_set_chunk_malloc_max); at most max_cached_chunks text/unknown chunks are
// kept (png_set_chunk_cache_max). Non-interlaced images stream row by row; an interlaced one
// needs its whole RGB image, held to max_image_bytes.
typedef struct {
    uint64_t max_pixels;
    uint32_t max_side;          // png_set_user_limits, each way
    uint32_t max_cached_chunks;
    uint64_t max_chunk_bytes;
    uint64_t max_image_bytes;
} PLPNGLimits;

// Receives the image row by row, top to bottom. begin is called once, before any row, with the
// size; returning non-zero stops the decode (PL_PNG_CANCELLED). Rows are RGB, 3 bytes a pixel.
typedef struct {
    void *context;
    int (*begin)(void *context, uint32_t width, uint32_t height);
    void (*row)(void *context, const uint8_t *rgb, uint32_t y);
} PLPNGRowSink;

typedef struct {
    uint32_t width;         // as the file declares, set once the header is read
    uint32_t height;
    int fact;               // PL_PNG_FACT_*: which of the fields below are set
    uint8_t chunk_type[4];  // as the file has it, not necessarily letters
    uint32_t chunk_length;
    char libpng_message[256];
} PLPNGResult;

// Decodes any PNG (1-16 bit, gray, gray+alpha, palette, tRNS, RGB(A), interlaced) to 8-bit RGB
// rows. Alpha and tRNS are dropped, as PIL's convert("RGB") does in the reference pipeline.
// Reading stops at the image's last row: nothing after it (extra IDAT data, later chunks) is
// inflated or even looked at by libpng.
int pl_png_decode(const uint8_t *data, size_t size, const PLPNGLimits *limits, const PLPNGRowSink *sink,
                  PLPNGResult *result);

#endif
