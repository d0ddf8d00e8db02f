// YUV rows to RGB: the portable loops every architecture has, the reference the SIMD kernels are
// tested against and what converts the few pixels a vector loop leaves at a row's end.
#include "CResample.h"

static inline uint8_t clamp_byte(int32_t value) { return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value; }

static inline void ycbcr_pixel(uint8_t y, uint8_t cb, uint8_t cr, uint8_t *rgb) {
    const int32_t luma = 298 * ((int32_t)y - 16) + 128, blue = (int32_t)cb - 128, red = (int32_t)cr - 128;
    rgb[0] = clamp_byte((luma + 409 * red) >> 8);
    rgb[1] = clamp_byte((luma - 100 * blue - 208 * red) >> 8);
    rgb[2] = clamp_byte((luma + 516 * blue) >> 8);
}

void yuv_yuyv_rgb_portable(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb) {
    for (ptrdiff_t pair = 0; pair < pixels / 2; pair++) {
        const uint8_t *source = yuyv + pair * 4;
        ycbcr_pixel(source[0], source[1], source[3], rgb + pair * 6);
        ycbcr_pixel(source[2], source[1], source[3], rgb + pair * 6 + 3);
    }
}

void yuv_nv12_rgb_portable(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb) {
    for (ptrdiff_t x = 0; x < pixels; x++) {
        const uint8_t *pair = chroma + (x >> 1) * 2;
        ycbcr_pixel(luma[x], pair[0], pair[1], rgb + x * 3);
    }
}

void frame_prefetch(const uint8_t *start, ptrdiff_t bytes) {
    for (ptrdiff_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(start + offset);
}
