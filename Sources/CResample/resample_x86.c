// SSE4.1 and AVX2 kernels. Each function carries its own target attribute, so this file builds
// with the package's default flags and nothing here runs unless the caller saw the CPU has it.
#if defined(__x86_64__)

#include "CResample.h"

#include <immintrin.h>
#include <string.h>

enum { PRECISION_BITS = 22, ROUNDING = 1 << (PRECISION_BITS - 1), AVX2_GROUP_TAPS = 4 };

int32_t resample_cpu_kernels(void) {
    __builtin_cpu_init();
    int32_t kernels = 0;
    if (__builtin_cpu_supports("sse4.1")) kernels |= PL_RESAMPLE_SSE41;
    if (__builtin_cpu_supports("avx2")) kernels |= PL_RESAMPLE_AVX2;
    return kernels;
}

// Output pixel x as its 3 bytes in the low bytes of a word. A 4-byte store is cheaper than a
// 3-byte one; its 4th byte lands on the next pixel's first, which that pixel then overwrites.
static inline void store_pixel(uint8_t *target, ptrdiff_t x, ptrdiff_t outputs, uint32_t word) {
    if (x + 1 < outputs) memcpy(target + x * 3, &word, 4); else memcpy(target + x * 3, &word, 3);
}

// The vertical sum of bytes [from, to) one at a time: the tail the vector loops leave. Unsigned
// arithmetic wraps as the vector lanes do; the true sums stay below 2^31 anyway.
static inline void vertical_bytes(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps,
                                  ptrdiff_t from, ptrdiff_t to, uint8_t *target) {
    for (ptrdiff_t i = from; i < to; i++) {
        uint32_t sum = ROUNDING;
        for (ptrdiff_t t = 0; t < taps; t++) sum += (uint32_t)rows[t][i] * (uint32_t)weights[t];
        target[i] = (uint8_t)(sum >> PRECISION_BITS);
    }
}

// One tap of the SSE4.1 horizontal pass: the pixel at byte `offset` as four 32-bit lanes (the
// fourth, the next pixel's first byte or zero, is ignored).
__attribute__((target("sse4.1")))
static inline __m128i pixel_lanes(const uint8_t *row, ptrdiff_t offset, ptrdiff_t row_bytes) {
    uint32_t word = 0;
    // Constant sizes, so the copies compile to plain loads rather than calls.
    if (offset + 4 <= row_bytes) memcpy(&word, row + offset, 4); else memcpy(&word, row + offset, 3);
    return _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)word));
}

__attribute__((target("sse4.1")))
void resample_horizontal_sse41(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                               const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target) {
    const ptrdiff_t row_bytes = source_pixels * 3;
    for (ptrdiff_t x = 0; x < outputs; x++) {
        const ptrdiff_t window = starts[x] * 3;
        const int32_t *w = weights + x * taps;
        __m128i sum = _mm_set1_epi32(ROUNDING);
        for (ptrdiff_t t = 0; t < taps; t++) {
            sum = _mm_add_epi32(sum, _mm_mullo_epi32(pixel_lanes(source, window + t * 3, row_bytes), _mm_set1_epi32(w[t])));
        }
        sum = _mm_srli_epi32(sum, PRECISION_BITS);
        const __m128i bytes = _mm_packus_epi16(_mm_packus_epi32(sum, sum), sum);
        store_pixel(target, x, outputs, (uint32_t)_mm_cvtsi128_si32(bytes));
    }
}

__attribute__((target("sse4.1")))
void resample_vertical_sse41(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                             uint8_t *target) {
    ptrdiff_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        __m128i s0 = _mm_set1_epi32(ROUNDING), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t t = 0; t < taps; t++) {
            const __m128i w = _mm_set1_epi32(weights[t]);
            const __m128i v = _mm_loadu_si128((const __m128i *)(rows[t] + i));
            s0 = _mm_add_epi32(s0, _mm_mullo_epi32(_mm_cvtepu8_epi32(v), w));
            s1 = _mm_add_epi32(s1, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(v, 4)), w));
            s2 = _mm_add_epi32(s2, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(v, 8)), w));
            s3 = _mm_add_epi32(s3, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(v, 12)), w));
        }
        const __m128i low = _mm_packus_epi32(_mm_srli_epi32(s0, PRECISION_BITS), _mm_srli_epi32(s1, PRECISION_BITS));
        const __m128i high = _mm_packus_epi32(_mm_srli_epi32(s2, PRECISION_BITS), _mm_srli_epi32(s3, PRECISION_BITS));
        _mm_storeu_si128((__m128i *)(target + i), _mm_packus_epi16(low, high));
    }
    vertical_bytes(rows, weights, taps, i, bytes, target);
}

// The AVX2 horizontal pass multiplies 16-bit pixel values by 16-bit weights (pmaddwd), two taps
// per 32-bit lane. A weight has 22 bits, so each is split into its bits above 11 (at most 2^11
// + 4, as the weights stay within 2^22 + 2^13) and its low 11 bits; the two sums are recombined
// as high * 2^11 + low, which is the 32-bit sum exactly. Per output pixel, per group of 4 taps:
// 8 lanes of high pairs (taps 0-1 in the lower 128 bits, 2-3 in the upper), then 8 of low pairs.
ptrdiff_t resample_avx2_packed_count(ptrdiff_t taps, ptrdiff_t outputs) {
    return outputs * ((taps + AVX2_GROUP_TAPS - 1) / AVX2_GROUP_TAPS) * 16;
}

void resample_avx2_pack(const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, int32_t *packed) {
    const ptrdiff_t groups = (taps + AVX2_GROUP_TAPS - 1) / AVX2_GROUP_TAPS;
    for (ptrdiff_t x = 0; x < outputs; x++) {
        for (ptrdiff_t g = 0; g < groups; g++) {
            int32_t *group = packed + (x * groups + g) * 16;
            for (int half = 0; half < 2; half++) {
                const ptrdiff_t t = g * AVX2_GROUP_TAPS + half * 2;
                const uint32_t first = t < taps ? (uint32_t)weights[x * taps + t] : 0;
                const uint32_t second = t + 1 < taps ? (uint32_t)weights[x * taps + t + 1] : 0;
                const uint32_t high = (first >> 11) | (second >> 11) << 16;
                const uint32_t low = (first & 0x7FF) | (second & 0x7FF) << 16;
                for (int lane = 0; lane < 4; lane++) {
                    group[half * 4 + lane] = (int32_t)high;
                    group[8 + half * 4 + lane] = (int32_t)low;
                }
            }
        }
    }
}

// Output pixel x's sums of high and low weight parts: 8 lanes each, taps 0-1 of each group in
// the lower 128 bits and 2-3 in the upper, to be added across the halves.
__attribute__((target("avx2")))
static inline void horizontal_sums_avx2(const uint8_t *source, ptrdiff_t row_bytes, ptrdiff_t at, const int32_t *group,
                                        ptrdiff_t groups, __m256i *high, __m256i *low) {
    // 16-bit R0 R1 G0 G1 B0 B1 0 0 from pixels 0 and 1 (lower half) and 2 and 3 (upper half).
    const __m256i pairs = _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                                           6, -1, 9, -1, 7, -1, 10, -1, 8, -1, 11, -1, -1, -1, -1, -1);
    *high = _mm256_setzero_si256();
    *low = *high;
    for (ptrdiff_t g = 0; g < groups; g++, at += 12, group += 16) {
        __m128i bytes;
        if (at + 16 <= row_bytes) {
            bytes = _mm_loadu_si128((const __m128i *)(source + at));
        } else {
            // The row's end: taps past it have zero weight, but must not be read.
            uint8_t tail[16] = {0};
            memcpy(tail, source + at, (size_t)(row_bytes - at < 16 ? row_bytes - at : 16));
            bytes = _mm_loadu_si128((const __m128i *)tail);
        }
        const __m256i pixels = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(bytes), pairs);
        *high = _mm256_add_epi32(*high, _mm256_madd_epi16(pixels, _mm256_loadu_si256((const __m256i *)group)));
        *low = _mm256_add_epi32(*low, _mm256_madd_epi16(pixels, _mm256_loadu_si256((const __m256i *)(group + 8))));
    }
}

// Two output pixels' sums (a's in the lower 128 bits, b's in the upper) to their bytes: the
// reduction across halves, recombination and shift run once for both.
__attribute__((target("avx2")))
static inline __m256i horizontal_pixels_avx2(__m256i high_a, __m256i low_a, __m256i high_b, __m256i low_b) {
    const __m256i high = _mm256_add_epi32(_mm256_permute2x128_si256(high_a, high_b, 0x20),
                                          _mm256_permute2x128_si256(high_a, high_b, 0x31));
    const __m256i low = _mm256_add_epi32(_mm256_permute2x128_si256(low_a, low_b, 0x20),
                                         _mm256_permute2x128_si256(low_a, low_b, 0x31));
    __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(high, 11), low), _mm256_set1_epi32(ROUNDING));
    sum = _mm256_srli_epi32(sum, PRECISION_BITS);
    return _mm256_packus_epi16(_mm256_packus_epi32(sum, sum), sum);
}

__attribute__((target("avx2")))
void resample_horizontal_avx2(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                              const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target) {
    const ptrdiff_t row_bytes = source_pixels * 3, groups = (taps + AVX2_GROUP_TAPS - 1) / AVX2_GROUP_TAPS;
    ptrdiff_t x = 0;
    for (; x + 1 < outputs; x += 2) {
        __m256i high_a, low_a, high_b, low_b;
        horizontal_sums_avx2(source, row_bytes, starts[x] * 3, packed + x * groups * 16, groups, &high_a, &low_a);
        horizontal_sums_avx2(source, row_bytes, starts[x + 1] * 3, packed + (x + 1) * groups * 16, groups, &high_b, &low_b);
        const __m256i out = horizontal_pixels_avx2(high_a, low_a, high_b, low_b);
        store_pixel(target, x, outputs, (uint32_t)_mm256_cvtsi256_si32(out));
        store_pixel(target, x + 1, outputs, (uint32_t)_mm256_extract_epi32(out, 4));
    }
    if (x < outputs) {
        __m256i high, low;
        horizontal_sums_avx2(source, row_bytes, starts[x] * 3, packed + x * groups * 16, groups, &high, &low);
        store_pixel(target, x, outputs, (uint32_t)_mm256_cvtsi256_si32(horizontal_pixels_avx2(high, low, high, low)));
    }
}

__attribute__((target("avx2")))
void resample_vertical_avx2(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                            uint8_t *target) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t i = 0;
    for (; i + 32 <= bytes; i += 32) {
        __m256i s0 = _mm256_set1_epi32(ROUNDING), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t t = 0; t < taps; t++) {
            const __m256i w = _mm256_set1_epi32(weights[t]);
            const uint8_t *row = rows[t] + i;
            s0 = _mm256_add_epi32(s0, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)row)), w));
            s1 = _mm256_add_epi32(s1, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + 8))), w));
            s2 = _mm256_add_epi32(s2, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + 16))), w));
            s3 = _mm256_add_epi32(s3, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + 24))), w));
        }
        const __m256i first = _mm256_packus_epi32(_mm256_srli_epi32(s0, PRECISION_BITS), _mm256_srli_epi32(s1, PRECISION_BITS));
        const __m256i second = _mm256_packus_epi32(_mm256_srli_epi32(s2, PRECISION_BITS), _mm256_srli_epi32(s3, PRECISION_BITS));
        // The packs work within 128-bit halves: put the 4-byte runs back in order.
        const __m256i packed = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(first, second), order);
        _mm256_storeu_si256((__m256i *)(target + i), packed);
    }
    for (; i + 8 <= bytes; i += 8) {
        __m256i s = _mm256_set1_epi32(ROUNDING);
        for (ptrdiff_t t = 0; t < taps; t++) {
            const __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(rows[t] + i)));
            s = _mm256_add_epi32(s, _mm256_mullo_epi32(v, _mm256_set1_epi32(weights[t])));
        }
        s = _mm256_srli_epi32(s, PRECISION_BITS);
        const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _mm_storel_epi64((__m128i *)(target + i), _mm_packus_epi16(words, words));
    }
    vertical_bytes(rows, weights, taps, i, bytes, target);
}

#endif
