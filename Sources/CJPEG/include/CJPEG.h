// libjpeg-turbo behind plain functions. libjpeg's default error handler calls exit(); here a
// custom error manager longjmps back under setjmp so a bad file is a status + the facts behind
// it, never a dead process. Warnings are counted instead of printed. The words are the caller's.
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
    PL_JPEG_MISSING_DATA = 5,  // the file ends properly but image data is missing (the fact says what)
    PL_JPEG_UNSUPPORTED = 6,   // a valid kind of JPEG libjpeg-turbo's 8-bit DCT decoder does not read (12-bit, lossless, hierarchical)
    PL_JPEG_OVER_BUDGET = 7,   // the decode would need more memory or work than its budget (the fact says which)
    PL_JPEG_CANCELLED = 8,     // the sink's begin returned non-zero
};

// Which facts of a PLJPEGResult explain a failed decode (its `fact`); the others stay zero.
enum {
    PL_JPEG_FACT_NONE = 0,                  // the status says it all
    PL_JPEG_FACT_LIBJPEG = 1,               // libjpeg_message: libjpeg's error, or the warning kept
    PL_JPEG_FACT_SCAN_CUT_SHORT = 2,        // libjpeg_message: its warning that a scan's entropy-coded
                                            // data hit a marker before the scan's last block
    PL_JPEG_FACT_SAMPLE_PRECISION = 3,      // sample_bits: the file's bits per sample (not 8)
    PL_JPEG_FACT_FRAME_MARKER = 4,          // frame_marker: the SOFn marker byte (0xC0 + n) libjpeg does not decode
    PL_JPEG_FACT_MEMORY = 5,                // libjpeg_message: libjpeg needed more than max_memory
    PL_JPEG_FACT_SCAN_WORK = 6,             // scans: progressive scans read when max_scan_work was passed
                                            // (the image is source_width x source_height)
    PL_JPEG_FACT_UNCODED_COEFFICIENTS = 7,  // component (1-based), uncoded_coefficients of its 64,
                                            // dc_uncoded: no progressive scan sent them
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

// Receives the decoded image row by row, top to bottom. scale is called once, after the header,
// with the size the file declares, and returns the DCT scale to decode at in eighths (1, 2, 4
// or 8). begin is called once, before any row, with the decoded size (after DCT scaling), the
// samples a pixel (3: RGB; 4: CMYK as stored, for CMYK and YCCK files), whether the file has an
// Adobe APP14 marker, and the EXIF APP1 payload ("Exif\0\0" + TIFF, or NULL); returning non-zero
// stops the decode (PL_JPEG_CANCELLED). Each row holds width x components bytes.
typedef struct {
    void *context;
    uint32_t (*scale)(void *context, uint32_t width, uint32_t height);
    int (*begin)(void *context, uint32_t width, uint32_t height, int components, int adobe_marker,
                 const uint8_t *exif, size_t exif_size);
    void (*row)(void *context, const uint8_t *samples, uint32_t y);
} PLJPEGRowSink;

typedef struct {
    uint32_t source_width;    // size the file declares
    uint32_t source_height;
    int fact;                 // PL_JPEG_FACT_*: which of the fields below are set
    int sample_bits;
    int frame_marker;
    int scans;
    int component;
    int uncoded_coefficients;
    int dc_uncoded;
    char libjpeg_message[200];  // JMSG_LENGTH_MAX
    // Set once the header is read, whatever the outcome: the IJG quality (1 to 100) whose
    // scaled standard luminance table is nearest the file's, 0 when the file has none.
    int estimated_quality;
} PLJPEGResult;

// Decodes baseline, progressive, grayscale and CMYK/YCCK JPEGs to 8-bit RGB or CMYK rows, at the
// DCT scale the sink chooses (libjpeg-turbo's DCT scaling, at its SIMD speed for 1/8, 1/4, 1/2
// and 1/1). Data after the end-of-image marker is ignored. Missing image data is an error even
// when the file ends with an end marker: a scan whose entropy-coded data stops early, or a
// progressive file whose scans never cover a coefficient. With strict set, any other warning
// fails the decode too (camera frames: a damaged frame should be skipped). Rows already given to
// the sink are not taken back: on an error the caller discards them.
int pl_jpeg_decode(const uint8_t *data, size_t size, const PLJPEGLimits *limits, int strict,
                   const PLJPEGRowSink *sink, PLJPEGResult *result);

// Encodes 1 (gray), 3 (RGB) or 4 (CMYK, written with an Adobe marker, samples as stored by
// Adobe: inverted) components. exif, when given, is written as an APP1 marker. Returns PL_JPEG_OK
// and a malloc'd buffer in *out (release with free) or an error with libjpeg's message.
int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
