// libjpeg-turbo behind plain functions. libjpeg's default error handler calls exit(); here a
// custom error manager longjmps back under setjmp so a bad file is a status + message, never a
// dead process. Warnings are counted instead of printed.
#ifndef PLANTLEAF_CJPEG_H
#define PLANTLEAF_CJPEG_H

#include <stddef.h>
#include <stdint.h>

enum {
    PL_JPEG_OK = 0,
    PL_JPEG_CORRUPT = 1,       // libjpeg refused the data
    PL_JPEG_TOO_LARGE = 2,     // source width x height (set in the result) above the limit; nothing allocated
    PL_JPEG_NO_MEMORY = 3,
    PL_JPEG_TRUNCATED = 4,     // the data ended before the image did
    PL_JPEG_MISSING_DATA = 5,  // the file ends properly but image data is missing (message says what)
    PL_JPEG_UNSUPPORTED = 6,   // a valid kind of JPEG libjpeg-turbo's 8-bit DCT decoder does not read (12-bit, lossless, hierarchical)
    PL_JPEG_OVER_BUDGET = 7,   // the decode would need more memory or work than its budget (message says which)
    PL_JPEG_CANCELLED = 8,     // the sink's begin returned non-zero
};

// What one decode may cost. max_memory is libjpeg's max_memory_to_use: what it may allocate
// for whole-image buffers (a progressive or multi-scan file keeps every DCT coefficient, 2 bytes
// each). max_scan_work bounds progressive decoding: each scan costs the image's pixels plus
// 65536 (the scan's own fixed cost), summed over the scans.
typedef struct {
    uint64_t max_pixels;
    uint64_t max_memory;
    uint64_t max_scan_work;
} PLJPEGLimits;

// Receives the decoded image row by row, top to bottom. begin is called once, before any row,
// with the decoded size (after DCT scaling) and the EXIF APP1 payload ("Exif\0\0" + TIFF, or
// NULL); returning non-zero stops the decode (PL_JPEG_CANCELLED). Rows are RGB, 3 bytes a pixel.
typedef struct {
    void *context;
    int (*begin)(void *context, uint32_t width, uint32_t height, const uint8_t *exif, size_t exif_size);
    void (*row)(void *context, const uint8_t *rgb, uint32_t y);
} PLJPEGRowSink;

typedef struct {
    uint32_t source_width;    // size the file declares
    uint32_t source_height;
    char message[256];
} PLJPEGResult;

// Decodes baseline, progressive, grayscale and CMYK/YCCK JPEGs to 8-bit RGB rows. When min_width
// and min_height are non-zero, decodes at the smallest of the scales 1/8, 1/4, 1/2, 1/1 that still
// covers them (libjpeg-turbo's DCT scaling, at its SIMD speed): a 12 MP photo never becomes 12 MP
// of RGB. Data after the end-of-image marker is ignored. Missing image data is an error even when
// the file ends with an end marker: a scan whose entropy-coded data stops early, or a progressive
// file whose scans never cover a coefficient. With strict set, any other warning fails the decode
// too (camera frames: a damaged frame should be skipped). Rows already given to the sink are not
// taken back: on an error the caller discards them.
int pl_jpeg_decode(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                   const PLJPEGLimits *limits, int strict, const PLJPEGRowSink *sink, PLJPEGResult *result);

// Encodes 1 (gray), 3 (RGB) or 4 (CMYK, written with an Adobe marker, samples as stored by
// Adobe: inverted) components. exif, when given, is written as an APP1 marker. Returns PL_JPEG_OK
// and a malloc'd buffer in *out (release with free) or an error with the reason in message.
int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
