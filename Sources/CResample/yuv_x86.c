// YUV rows to RGB with SSE4.1 and AVX2, 8 pixels per 128-bit lane. The fixed-point formula is
// the portable one's, computed exactly: each pair of products is one 16-bit multiply-add into a
// 32-bit lane (pmaddwd), the rounding term rides along as luma times 298 plus 1 times 128, the
// shift is arithmetic as in C, and the signed-then-unsigned saturating packs are the clamp.
#if defined(__x86_64__)

#include "CResample.h"

#include <immintrin.h>

// (Y-16, 1) pairs times these give 298 (Y-16) + 128; (Cb-128, Cr-128) pairs times the other
// three give each channel's chroma term (-100 and -208 as 16-bit two's complement).
#define LUMA_PAIR (298 | 128 << 16)
#define RED_PAIR (409 << 16)
#define GREEN_PAIR ((int)0xFF30FF9Cu)
#define BLUE_PAIR 516

// Within each 128-bit lane: R0-7 G0-7 and B0-7 (twice) as bytes, to R G B R G B...: the first
// 16 bytes of the 8 pixels from each source, then the last 8.
#define RGB_FIRST_FROM_RG 0, 8, -1, 1, 9, -1, 2, 10, -1, 3, 11, -1, 4, 12, -1, 5
#define RGB_FIRST_FROM_B -1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1
#define RGB_LAST_FROM_RG 13, -1, 6, 14, -1, 7, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1
#define RGB_LAST_FROM_B -1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1

// 8 pixels from 16-bit Y-16, Cb-128 and Cr-128 (each pixel's own chroma): 24 bytes of RGB.
__attribute__((target("sse4.1")))
static inline void rgb8_sse41(__m128i y, __m128i cb, __m128i cr, uint8_t *rgb) {
    const __m128i one = _mm_set1_epi16(1);
    const __m128i luma[2] = {_mm_madd_epi16(_mm_unpacklo_epi16(y, one), _mm_set1_epi32(LUMA_PAIR)),
                             _mm_madd_epi16(_mm_unpackhi_epi16(y, one), _mm_set1_epi32(LUMA_PAIR))};
    const __m128i chroma[2] = {_mm_unpacklo_epi16(cb, cr), _mm_unpackhi_epi16(cb, cr)};
    __m128i channel[3];
    const int pairs[3] = {RED_PAIR, GREEN_PAIR, BLUE_PAIR};
    for (int c = 0; c < 3; c++) {
        const __m128i coefficients = _mm_set1_epi32(pairs[c]);
        const __m128i low = _mm_srai_epi32(_mm_add_epi32(luma[0], _mm_madd_epi16(chroma[0], coefficients)), 8);
        const __m128i high = _mm_srai_epi32(_mm_add_epi32(luma[1], _mm_madd_epi16(chroma[1], coefficients)), 8);
        channel[c] = _mm_packs_epi32(low, high);
    }
    const __m128i rg = _mm_packus_epi16(channel[0], channel[1]), bb = _mm_packus_epi16(channel[2], channel[2]);
    const __m128i first = _mm_or_si128(_mm_shuffle_epi8(rg, _mm_setr_epi8(RGB_FIRST_FROM_RG)),
                                       _mm_shuffle_epi8(bb, _mm_setr_epi8(RGB_FIRST_FROM_B)));
    const __m128i last = _mm_or_si128(_mm_shuffle_epi8(rg, _mm_setr_epi8(RGB_LAST_FROM_RG)),
                                      _mm_shuffle_epi8(bb, _mm_setr_epi8(RGB_LAST_FROM_B)));
    _mm_storeu_si128((__m128i *)rgb, first);
    _mm_storel_epi64((__m128i *)(rgb + 16), last);
}

// Y0 U Y1 V ... to 16-bit Y, U and V per pixel (each pair's chroma twice).
#define YUYV_LUMA 0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1, 12, -1, 14, -1
#define YUYV_CB 1, -1, 1, -1, 5, -1, 5, -1, 9, -1, 9, -1, 13, -1, 13, -1
#define YUYV_CR 3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1

__attribute__((target("sse4.1")))
void yuv_yuyv_rgb_sse41(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb) {
    const __m128i luma_offset = _mm_set1_epi16(16), chroma_offset = _mm_set1_epi16(128);
    ptrdiff_t x = 0;
    for (; x + 8 <= pixels; x += 8) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(yuyv + x * 2));
        rgb8_sse41(_mm_sub_epi16(_mm_shuffle_epi8(bytes, _mm_setr_epi8(YUYV_LUMA)), luma_offset),
                   _mm_sub_epi16(_mm_shuffle_epi8(bytes, _mm_setr_epi8(YUYV_CB)), chroma_offset),
                   _mm_sub_epi16(_mm_shuffle_epi8(bytes, _mm_setr_epi8(YUYV_CR)), chroma_offset), rgb + x * 3);
    }
    yuv_yuyv_rgb_portable(yuyv + x * 2, pixels - x, rgb + x * 3);
}

// U V pairs 0-3 to 16-bit U and V per pixel.
#define NV12_CB 0, -1, 0, -1, 2, -1, 2, -1, 4, -1, 4, -1, 6, -1, 6, -1
#define NV12_CR 1, -1, 1, -1, 3, -1, 3, -1, 5, -1, 5, -1, 7, -1, 7, -1

__attribute__((target("sse4.1")))
void yuv_nv12_rgb_sse41(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb) {
    const __m128i luma_offset = _mm_set1_epi16(16), chroma_offset = _mm_set1_epi16(128);
    ptrdiff_t x = 0;
    for (; x + 8 <= pixels; x += 8) {
        const __m128i y = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)(luma + x)));
        const __m128i pairs = _mm_loadl_epi64((const __m128i *)(chroma + x));
        rgb8_sse41(_mm_sub_epi16(y, luma_offset), _mm_sub_epi16(_mm_shuffle_epi8(pairs, _mm_setr_epi8(NV12_CB)), chroma_offset),
                   _mm_sub_epi16(_mm_shuffle_epi8(pairs, _mm_setr_epi8(NV12_CR)), chroma_offset), rgb + x * 3);
    }
    yuv_nv12_rgb_portable(luma + x, chroma + x, pixels - x, rgb + x * 3);
}

// The same 16 pixels at a time: pixels 0-7 in the lower lane, 8-15 in the upper.
__attribute__((target("avx2")))
static inline void rgb16_avx2(__m256i y, __m256i cb, __m256i cr, uint8_t *rgb) {
    const __m256i one = _mm256_set1_epi16(1);
    const __m256i luma[2] = {_mm256_madd_epi16(_mm256_unpacklo_epi16(y, one), _mm256_set1_epi32(LUMA_PAIR)),
                             _mm256_madd_epi16(_mm256_unpackhi_epi16(y, one), _mm256_set1_epi32(LUMA_PAIR))};
    const __m256i chroma[2] = {_mm256_unpacklo_epi16(cb, cr), _mm256_unpackhi_epi16(cb, cr)};
    __m256i channel[3];
    const int pairs[3] = {RED_PAIR, GREEN_PAIR, BLUE_PAIR};
    for (int c = 0; c < 3; c++) {
        const __m256i coefficients = _mm256_set1_epi32(pairs[c]);
        const __m256i low = _mm256_srai_epi32(_mm256_add_epi32(luma[0], _mm256_madd_epi16(chroma[0], coefficients)), 8);
        const __m256i high = _mm256_srai_epi32(_mm256_add_epi32(luma[1], _mm256_madd_epi16(chroma[1], coefficients)), 8);
        channel[c] = _mm256_packs_epi32(low, high);
    }
    const __m256i rg = _mm256_packus_epi16(channel[0], channel[1]), bb = _mm256_packus_epi16(channel[2], channel[2]);
    const __m256i first = _mm256_or_si256(_mm256_shuffle_epi8(rg, _mm256_setr_epi8(RGB_FIRST_FROM_RG, RGB_FIRST_FROM_RG)),
                                          _mm256_shuffle_epi8(bb, _mm256_setr_epi8(RGB_FIRST_FROM_B, RGB_FIRST_FROM_B)));
    const __m256i last = _mm256_or_si256(_mm256_shuffle_epi8(rg, _mm256_setr_epi8(RGB_LAST_FROM_RG, RGB_LAST_FROM_RG)),
                                         _mm256_shuffle_epi8(bb, _mm256_setr_epi8(RGB_LAST_FROM_B, RGB_LAST_FROM_B)));
    _mm_storeu_si128((__m128i *)rgb, _mm256_castsi256_si128(first));
    _mm_storel_epi64((__m128i *)(rgb + 16), _mm256_castsi256_si128(last));
    _mm_storeu_si128((__m128i *)(rgb + 24), _mm256_extracti128_si256(first, 1));
    _mm_storel_epi64((__m128i *)(rgb + 40), _mm256_extracti128_si256(last, 1));
}

__attribute__((target("avx2")))
void yuv_yuyv_rgb_avx2(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb) {
    const __m256i luma_offset = _mm256_set1_epi16(16), chroma_offset = _mm256_set1_epi16(128);
    ptrdiff_t x = 0;
    for (; x + 16 <= pixels; x += 16) {
        const __m256i bytes = _mm256_loadu_si256((const __m256i *)(yuyv + x * 2));
        rgb16_avx2(_mm256_sub_epi16(_mm256_shuffle_epi8(bytes, _mm256_setr_epi8(YUYV_LUMA, YUYV_LUMA)), luma_offset),
                   _mm256_sub_epi16(_mm256_shuffle_epi8(bytes, _mm256_setr_epi8(YUYV_CB, YUYV_CB)), chroma_offset),
                   _mm256_sub_epi16(_mm256_shuffle_epi8(bytes, _mm256_setr_epi8(YUYV_CR, YUYV_CR)), chroma_offset), rgb + x * 3);
    }
    yuv_yuyv_rgb_sse41(yuyv + x * 2, pixels - x, rgb + x * 3);
}

// U V pairs 0-7, the same 16 bytes in both lanes: pairs 0-3 for the lower lane, 4-7 the upper.
#define NV12_CB_HIGH 8, -1, 8, -1, 10, -1, 10, -1, 12, -1, 12, -1, 14, -1, 14, -1
#define NV12_CR_HIGH 9, -1, 9, -1, 11, -1, 11, -1, 13, -1, 13, -1, 15, -1, 15, -1

__attribute__((target("avx2")))
void yuv_nv12_rgb_avx2(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb) {
    const __m256i luma_offset = _mm256_set1_epi16(16), chroma_offset = _mm256_set1_epi16(128);
    ptrdiff_t x = 0;
    for (; x + 16 <= pixels; x += 16) {
        const __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(luma + x)));
        const __m256i pairs = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(chroma + x)));
        rgb16_avx2(_mm256_sub_epi16(y, luma_offset),
                   _mm256_sub_epi16(_mm256_shuffle_epi8(pairs, _mm256_setr_epi8(NV12_CB, NV12_CB_HIGH)), chroma_offset),
                   _mm256_sub_epi16(_mm256_shuffle_epi8(pairs, _mm256_setr_epi8(NV12_CR, NV12_CR_HIGH)), chroma_offset),
                   rgb + x * 3);
    }
    yuv_nv12_rgb_sse41(luma + x, chroma + x, pixels - x, rgb + x * 3);
}

#endif
