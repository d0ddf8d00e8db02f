// The verdict's picture statistics of a row with AVX2. Like the resize kernels it carries its
// own target attribute and runs only when the caller saw the CPU has AVX2.
#if defined(__x86_64__)

#include "CResample.h"

#include <immintrin.h>
#include <string.h>

typedef struct {
    __m256i luma, squares, green, midtone, flat;
} picture_lanes;

// Pixels 0-7 of `row` into the lanes (pixel 8 is read, to compare pixel 7 with).
__attribute__((target("avx2"), always_inline))
static inline void add_eight(const uint8_t *row, picture_lanes *lanes) {
    // Bytes 0-15 in the lower half and 12-27 in the upper: pixels 0-3 and 4-7 with the pixel
    // after each, all inside one half, where the byte shuffles reach.
    const __m256i halves = _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
    const __m256i red_green = _mm256_setr_epi8(0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1,
                                               0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1);
    const __m256i blue = _mm256_setr_epi8(2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1,
                                          2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1);
    const __m256i this_pixel = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                                0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i next_pixel = _mm256_setr_epi8(3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 12, 13, 14, -1,
                                                3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 12, 13, 14, -1);
    // Per 32-bit lane, 16-bit (R, G) pairs and B alone times these, by pmaddwd.
    const __m256i luma_red_green = _mm256_set1_epi32(77 | 150 << 16), luma_blue = _mm256_set1_epi32(29);
    const __m256i add_red_green = _mm256_set1_epi32(1 | 1 << 16);
    const __m256i excess_red_green = _mm256_set1_epi32((uint16_t)-20 | 40 << 16), excess_blue = _mm256_set1_epi32((uint16_t)-20);
    const __m256i low_words = _mm256_set1_epi64x(0xFFFFFFFF);
    const __m256i v = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)row), halves);
    const __m256i rg = _mm256_shuffle_epi8(v, red_green), b = _mm256_shuffle_epi8(v, blue);
    const __m256i y = _mm256_add_epi32(_mm256_madd_epi16(rg, luma_red_green), _mm256_madd_epi16(b, luma_blue));
    const __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(rg, add_red_green), b);
    // 20 (2G - R - B), signed.
    const __m256i excess = _mm256_add_epi32(_mm256_madd_epi16(rg, excess_red_green), _mm256_madd_epi16(b, excess_blue));
    const __m256i y_odd = _mm256_srli_epi64(y, 32);
    lanes->luma = _mm256_add_epi64(lanes->luma, _mm256_add_epi64(_mm256_and_si256(y, low_words), y_odd));
    lanes->squares = _mm256_add_epi64(lanes->squares, _mm256_add_epi64(_mm256_mul_epu32(y, y), _mm256_mul_epu32(y_odd, y_odd)));
    // Comparisons give -1 per lane where true: subtracting them counts.
    lanes->green = _mm256_sub_epi32(lanes->green, _mm256_and_si256(_mm256_cmpgt_epi32(sum, _mm256_set1_epi32(89)),
                                                                   _mm256_cmpgt_epi32(excess, sum)));
    const __m256i is_midtone = _mm256_and_si256(_mm256_cmpgt_epi32(y, _mm256_set1_epi32(32 * 256 - 1)),
                                                _mm256_cmpgt_epi32(_mm256_set1_epi32(224 * 256 + 1), y));
    lanes->midtone = _mm256_sub_epi32(lanes->midtone, is_midtone);
    const __m256i same = _mm256_cmpeq_epi32(_mm256_shuffle_epi8(v, this_pixel), _mm256_shuffle_epi8(v, next_pixel));
    lanes->flat = _mm256_sub_epi32(lanes->flat, _mm256_and_si256(is_midtone, same));
}

__attribute__((target("avx2")))
void picture_row_avx2(const uint8_t *row, ptrdiff_t pixels, pl_picture_row *sums) {
    picture_lanes lanes = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                           _mm256_setzero_si256()};
    ptrdiff_t p = 0;
    // 32-byte loads: the pixel after the last one counted is always there to compare with.
    for (; 3 * p + 32 <= 3 * pixels; p += 8) add_eight(row + 3 * p, &lanes);
    // The last pixels (at most 10) from a copy padded with black, which adds nothing: its luma
    // and sum are 0, so it is neither green nor a mid-tone, and a pixel equal to it is black, no
    // mid-tone either, so the row's last pixel is never counted flat.
    if (p < pixels) {
        uint8_t tail[64] = {0};
        memcpy(tail, row + 3 * p, (size_t)(3 * (pixels - p)));
        for (ptrdiff_t q = 0; q < pixels - p; q += 8) add_eight(tail + 3 * q, &lanes);
    }
    int64_t luma_lanes[4], square_lanes[4];
    int32_t green_lanes[8], midtone_lanes[8], flat_lanes[8];
    _mm256_storeu_si256((__m256i *)luma_lanes, lanes.luma);
    _mm256_storeu_si256((__m256i *)square_lanes, lanes.squares);
    _mm256_storeu_si256((__m256i *)green_lanes, lanes.green);
    _mm256_storeu_si256((__m256i *)midtone_lanes, lanes.midtone);
    _mm256_storeu_si256((__m256i *)flat_lanes, lanes.flat);
    *sums = (pl_picture_row){0};
    for (int i = 0; i < 4; i++) {
        sums->luma_sum += luma_lanes[i];
        sums->luma_square_sum += square_lanes[i];
    }
    for (int i = 0; i < 8; i++) {
        sums->green_pixels += green_lanes[i];
        sums->midtone_pixels += midtone_lanes[i];
        sums->flat_midtone_pixels += flat_lanes[i];
    }
}

#endif
