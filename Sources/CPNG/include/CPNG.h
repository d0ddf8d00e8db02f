// libpng behind plain functions: libpng reports errors by longjmp, which Swift cannot catch,
// so every libpng call runs here under setjmp and failures come back as a status + message.
#ifndef PLANTLEAF_CPNG_H
#define PLANTLEAF_CPNG_H

#include <stddef.h>
#include <stdint.h>

enum {
    PL_PNG_OK = 0,
    PL_PNG_CORRUPT = 1,     // libpng refused the data (bad signature, CRC, truncated ...)
    PL_PNG_TOO_LARGE = 2,   // width x height (set in the image) above the caller's limit; nothing allocated
    PL_PNG_NO_MEMORY = 3,
};

typedef struct {
    uint8_t *pixels;        // RGB, 3 bytes a pixel, rows packed; release with pl_png_image_free
    uint32_t width;
    uint32_t height;
    char message[256];      // why decoding failed
} PLPNGImage;

// Decodes any PNG (1-16 bit, gray, gray+alpha, palette, tRNS, RGB(A), interlaced) to 8-bit RGB.
// Alpha and tRNS are dropped, as PIL's convert("RGB") does in the reference pipeline.
int pl_png_decode_rgb(const uint8_t *data, size_t size, uint64_t max_pixels, PLPNGImage *image);
void pl_png_image_free(PLPNGImage *image);

// Encodes rows already laid out as the PNG stores them (rows packed, 16-bit samples big-endian).
// Used by the tests and the fuzz seed generator to make every variant the decoder must read.
// color_type is libpng's (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA). Returns PL_PNG_OK and a
// malloc'd buffer in *out (release with free) or an error status with the reason in message.
int pl_png_encode(const uint8_t *rows, uint32_t width, uint32_t height, int color_type, int bit_depth,
                  int interlaced, const uint8_t *palette_rgb, int palette_entries,
                  const uint8_t *transparency, int transparency_entries,
                  uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
