// A PNG encoder for the tests and the fuzz seeds, kept out of the product: it makes every
// variant the decoder in CPNG must read. libpng reports errors by longjmp, which Swift cannot
// catch, so it runs here under setjmp.
#ifndef PLANTLEAF_CPNGENCODER_H
#define PLANTLEAF_CPNGENCODER_H

#include <stddef.h>
#include <stdint.h>

enum {
    PL_PNG_ENCODED = 0,
    PL_PNG_ENCODE_FAILED = 1,
};

// Encodes rows already laid out as the PNG stores them (rows packed, 16-bit samples big-endian).
// color_type is libpng's (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA). Returns PL_PNG_ENCODED
// and a malloc'd buffer in *out (release with free), or PL_PNG_ENCODE_FAILED after libpng printed
// the reason on stderr.
int pl_png_encode(const uint8_t *rows, uint32_t width, uint32_t height, int color_type, int bit_depth,
                  int interlaced, const uint8_t *palette_rgb, int palette_entries,
                  const uint8_t *transparency, int transparency_entries,
                  uint8_t **out, size_t *out_size);

#endif
