// libjpeg-turbo behind plain functions. libjpeg's default error handler calls exit(); here a
// custom error manager longjmps back under setjmp so a bad file is a status + message, never a
// dead process. Warnings are counted instead of printed.
#ifndef PLANTLEAF_CJPEG_H
#define PLANTLEAF_CJPEG_H

#include <stddef.h>
#include <stdint.h>

enum {
    PL_JPEG_OK = 0,
    PL_JPEG_CORRUPT = 1,    // libjpeg refused the data
    PL_JPEG_TOO_LARGE = 2,  // source width x height (set in the image) above the limit; nothing allocated
    PL_JPEG_NO_MEMORY = 3,
    PL_JPEG_TRUNCATED = 4,  // the data ended before the image did
};

typedef struct {
    uint8_t *pixels;          // RGB, 3 bytes a pixel, rows packed; release with pl_jpeg_image_free
    uint32_t width;           // decoded size, after DCT scaling
    uint32_t height;
    uint32_t source_width;    // size the file declares
    uint32_t source_height;
    uint8_t *exif;            // APP1 payload starting "Exif\0\0", or NULL
    size_t exif_size;
    char message[256];
} PLJPEGImage;

// Decodes baseline, progressive, grayscale and CMYK/YCCK JPEGs to 8-bit RGB. When min_width and
// min_height are non-zero, decodes at the smallest of the scales 1/8, 1/4, 1/2, 1/1 that still
// covers them (libjpeg-turbo's DCT scaling, at its SIMD speed): a 12 MP photo never becomes 12 MP of RGB.
// Data after the end-of-image marker is ignored. With strict set, any warning fails the decode
// (for camera frames, where a damaged frame should be skipped); otherwise only a truncated
// file does.
int pl_jpeg_decode_rgb(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                       uint64_t max_pixels, int strict, PLJPEGImage *image);
void pl_jpeg_image_free(PLJPEGImage *image);

// Encodes 1 (gray), 3 (RGB) or 4 (CMYK, written with an Adobe marker, samples as stored by
// Adobe: inverted) components. exif, when given, is written as an APP1 marker. Returns PL_JPEG_OK
// and a malloc'd buffer in *out (release with free) or an error with the reason in message.
int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
