// The verdict's picture statistics of a row with NEON, which every aarch64 CPU has.
#if defined(__aarch64__)

#include "CResample.h"

#include <arm_neon.h>
#include <string.h>

// 1 in each lane of `mask` (all ones or zeros) that is set, added pairwise into 32-bit counts.
static inline uint32x4_t count_set(uint32x4_t counts, uint8x16_t mask) {
    return vpadalq_u16(counts, vpaddlq_u8(vshrq_n_u8(mask, 7)));
}

// The luma of 8 pixels, 77 R + 150 G + 29 B: at most 65,280, so it fits 16 bits.
static inline uint16x8_t luma(uint8x8_t red, uint8x8_t green, uint8x8_t blue) {
    uint16x8_t y = vmull_u8(red, vdup_n_u8(77));
    y = vmlal_u8(y, green, vdup_n_u8(150));
    return vmlal_u8(y, blue, vdup_n_u8(29));
}

// Whether each of 8 pixels is green tissue: R + G + B >= 90 and 20 (2G - R - B) > R + G + B,
// the second in signed 16 bits (at most 10,200 either way).
static inline uint16x8_t green_tissue(uint8x8_t red, uint8x8_t green, uint8x8_t blue) {
    const uint16x8_t sum = vaddw_u8(vaddl_u8(red, green), blue);
    const int16x8_t excess = vmulq_n_s16(vreinterpretq_s16_u16(vsubq_u16(vsubq_u16(vshll_n_u8(green, 1), vmovl_u8(red)),
                                                                         vmovl_u8(blue))), 20);
    return vandq_u16(vcgeq_u16(sum, vdupq_n_u16(90)), vcgtq_s16(excess, vreinterpretq_s16_u16(sum)));
}

static inline uint16x8_t midtone(uint16x8_t y) {
    return vandq_u16(vcgeq_u16(y, vdupq_n_u16(32 * 256)), vcleq_u16(y, vdupq_n_u16(224 * 256)));
}

// Adds the squares of 8 lumas (each below 2^32) into two 64-bit lanes.
static inline uint64x2_t add_squares(uint64x2_t squares, uint16x8_t y) {
    squares = vpadalq_u32(squares, vmull_u16(vget_low_u16(y), vget_low_u16(y)));
    return vpadalq_u32(squares, vmull_u16(vget_high_u16(y), vget_high_u16(y)));
}

typedef struct {
    uint64x2_t luma_sum, squares;
    uint32x4_t green, midtones, flat;
} picture_lanes;

// Pixels 0-15 of `row` into the lanes (pixel 16 is read, to compare pixel 15 with).
static inline void add_sixteen(const uint8_t *row, picture_lanes *lanes) {
    uint64x2_t luma_sum = lanes->luma_sum, squares = lanes->squares;
    uint32x4_t green = lanes->green, midtones = lanes->midtones, flat = lanes->flat;
    const uint8x16x3_t now = vld3q_u8(row), next = vld3q_u8(row + 3);
    const uint16x8_t y_low = luma(vget_low_u8(now.val[0]), vget_low_u8(now.val[1]), vget_low_u8(now.val[2]));
    const uint16x8_t y_high = luma(vget_high_u8(now.val[0]), vget_high_u8(now.val[1]), vget_high_u8(now.val[2]));
    luma_sum = vpadalq_u32(luma_sum, vaddq_u32(vpaddlq_u16(y_low), vpaddlq_u16(y_high)));
    squares = add_squares(add_squares(squares, y_low), y_high);
    const uint8x16_t is_green = vcombine_u8(
        vmovn_u16(green_tissue(vget_low_u8(now.val[0]), vget_low_u8(now.val[1]), vget_low_u8(now.val[2]))),
        vmovn_u16(green_tissue(vget_high_u8(now.val[0]), vget_high_u8(now.val[1]), vget_high_u8(now.val[2]))));
    green = count_set(green, is_green);
    const uint8x16_t is_midtone = vcombine_u8(vmovn_u16(midtone(y_low)), vmovn_u16(midtone(y_high)));
    midtones = count_set(midtones, is_midtone);
    const uint8x16_t same = vandq_u8(vandq_u8(vceqq_u8(now.val[0], next.val[0]), vceqq_u8(now.val[1], next.val[1])),
                                     vceqq_u8(now.val[2], next.val[2]));
    flat = count_set(flat, vandq_u8(is_midtone, same));
    *lanes = (picture_lanes){luma_sum, squares, green, midtones, flat};
}

void picture_row_neon(const uint8_t *row, ptrdiff_t pixels, pl_picture_row *sums) {
    picture_lanes lanes = {vdupq_n_u64(0), vdupq_n_u64(0), vdupq_n_u32(0), vdupq_n_u32(0), vdupq_n_u32(0)};
    ptrdiff_t p = 0;
    // 16 pixels a step, deinterleaved by the load, with the 16 after each loaded from one pixel on:
    // the pixel after the last one counted is always there to compare with.
    for (; p + 17 <= pixels; p += 16) add_sixteen(row + 3 * p, &lanes);
    // The last pixels (at most 16) from a copy padded with black, which adds nothing: its luma
    // and sum are 0, so it is neither green nor a mid-tone, and a pixel equal to it is black, no
    // mid-tone either, so the row's last pixel is never counted flat.
    if (p < pixels) {
        uint8_t tail[64] = {0};
        memcpy(tail, row + 3 * p, (size_t)(3 * (pixels - p)));
        add_sixteen(tail, &lanes);
    }
    *sums = (pl_picture_row){
        .luma_sum = (int64_t)vaddvq_u64(lanes.luma_sum),
        .luma_square_sum = (int64_t)vaddvq_u64(lanes.squares),
        .green_pixels = vaddvq_u32(lanes.green),
        .midtone_pixels = vaddvq_u32(lanes.midtones),
        .flat_midtone_pixels = vaddvq_u32(lanes.flat),
    };
}

#endif
