// NEON kernels: every aarch64 CPU has NEON, so they need no check and no target attribute.
#if defined(__aarch64__)

#include "CResample.h"

#include <arm_neon.h>
#include <string.h>

enum { PRECISION_BITS = 22, ROUNDING = 1 << (PRECISION_BITS - 1) };

int32_t resample_cpu_kernels(void) { return PL_RESAMPLE_NEON; }

// One tap of the horizontal pass: the pixel at byte `offset` as four 32-bit lanes (the fourth,
// the next pixel's first byte or zero, is ignored).
static inline uint32x4_t pixel_lanes(const uint8_t *row, ptrdiff_t offset, ptrdiff_t row_bytes) {
    uint32_t word = 0;
    // Constant sizes, so the copies compile to plain loads rather than calls.
    if (offset + 4 <= row_bytes) memcpy(&word, row + offset, 4); else memcpy(&word, row + offset, 3);
    return vmovl_u16(vget_low_u16(vmovl_u8(vcreate_u8(word))));
}

void resample_horizontal_neon(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                              const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target) {
    const ptrdiff_t row_bytes = source_pixels * 3;
    for (ptrdiff_t x = 0; x < outputs; x++) {
        const ptrdiff_t window = starts[x] * 3;
        const int32_t *w = weights + x * taps;
        uint32x4_t sum = vdupq_n_u32(ROUNDING);
        for (ptrdiff_t t = 0; t < taps; t++) {
            sum = vmlaq_n_u32(sum, pixel_lanes(source, window + t * 3, row_bytes), (uint32_t)w[t]);
        }
        // Lanes 0-2 are within a byte after the shift; lane 3 is dropped by the 3-byte copy.
        const uint16x4_t halves = vmovn_u32(vshrq_n_u32(sum, PRECISION_BITS));
        const uint8x8_t bytes = vmovn_u16(vcombine_u16(halves, halves));
        uint32_t word = vget_lane_u32(vreinterpret_u32_u8(bytes), 0);
        // A 4-byte store where the next pixel will overwrite the 4th byte.
        if (x + 1 < outputs) memcpy(target + x * 3, &word, 4); else memcpy(target + x * 3, &word, 3);
    }
}

void resample_vertical_neon(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                            uint8_t *target) {
    ptrdiff_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        uint32x4_t s0 = vdupq_n_u32(ROUNDING), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t t = 0; t < taps; t++) {
            const uint32_t w = (uint32_t)weights[t];
            const uint8x16_t v = vld1q_u8(rows[t] + i);
            const uint16x8_t low = vmovl_u8(vget_low_u8(v)), high = vmovl_u8(vget_high_u8(v));
            s0 = vmlaq_n_u32(s0, vmovl_u16(vget_low_u16(low)), w);
            s1 = vmlaq_n_u32(s1, vmovl_u16(vget_high_u16(low)), w);
            s2 = vmlaq_n_u32(s2, vmovl_u16(vget_low_u16(high)), w);
            s3 = vmlaq_n_u32(s3, vmovl_u16(vget_high_u16(high)), w);
        }
        const uint16x8_t low = vcombine_u16(vmovn_u32(vshrq_n_u32(s0, PRECISION_BITS)), vmovn_u32(vshrq_n_u32(s1, PRECISION_BITS)));
        const uint16x8_t high = vcombine_u16(vmovn_u32(vshrq_n_u32(s2, PRECISION_BITS)), vmovn_u32(vshrq_n_u32(s3, PRECISION_BITS)));
        vst1q_u8(target + i, vcombine_u8(vmovn_u16(low), vmovn_u16(high)));
    }
    // The tail a byte at a time; unsigned arithmetic wraps as the lanes do.
    for (; i < bytes; i++) {
        uint32_t sum = ROUNDING;
        for (ptrdiff_t t = 0; t < taps; t++) sum += (uint32_t)rows[t][i] * (uint32_t)weights[t];
        target[i] = (uint8_t)(sum >> PRECISION_BITS);
    }
}

#endif
