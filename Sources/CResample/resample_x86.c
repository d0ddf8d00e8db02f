// SSE4.1 and AVX2 kernels (AVX-512's horizontal pass is in resample_avx512.c). Each function
// carries its own target attribute, so this file builds with the package's default flags and
// nothing here runs unless the caller saw the CPU has it.
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
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vnni")) {
        kernels |= PL_RESAMPLE_AVX512;
    }
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
// as high * 2^11 + low, which is the 32-bit sum exactly. Each 128-bit half of a register holds
// one output pixel (R, G, B and an unused lane), so a pixel's taps all add up in its own half and
// no sum crosses halves. Outputs go in pairs, the even one in the lower half. The weights are
// laid out as the multiplies take them, so the loop only loads them: per pair, per group of 4
// taps, four vectors of 8 lanes (the high parts of taps 0-1, of taps 2-3, the low parts of taps
// 0-1, of taps 2-3), each with the even output's pair of parts in its lower 4 lanes and the odd
// output's in its upper 4; a last group of one tap (5 taps, as a 2:1 downscale has) has only the
// vectors of its high and low parts. Spreading packed weights with shuffles instead made the
// pass a third slower: the shuffles, not the loads, were what it waited on.
static inline int lone_last_tap(ptrdiff_t taps) { return taps > AVX2_GROUP_TAPS && taps % AVX2_GROUP_TAPS == 1; }

// Groups of 4 taps whose pixels are loaded; a lone last tap is not one of them.
static inline ptrdiff_t loaded_groups(ptrdiff_t taps) {
    return (taps + AVX2_GROUP_TAPS - 1) / AVX2_GROUP_TAPS - lone_last_tap(taps);
}

static inline ptrdiff_t pair_ints(ptrdiff_t taps) { return loaded_groups(taps) * 32 + lone_last_tap(taps) * 16; }

ptrdiff_t resample_avx2_packed_count(ptrdiff_t taps, ptrdiff_t outputs) {
    return (outputs + 1) / 2 * pair_ints(taps);
}

// Where output x's high parts of taps t and t + 1 (t even) lie, 4 times over; its low parts are
// the vector after (a lone tap's) or 2 vectors after (a group's).
static inline ptrdiff_t packed_index(ptrdiff_t taps, ptrdiff_t x, ptrdiff_t t) {
    const ptrdiff_t group = t / AVX2_GROUP_TAPS;
    return x / 2 * pair_ints(taps) + group * 32 + t % AVX2_GROUP_TAPS / 2 * 8 + x % 2 * 4;
}

static inline ptrdiff_t low_offset(ptrdiff_t taps, ptrdiff_t t) {
    return lone_last_tap(taps) && t / AVX2_GROUP_TAPS == loaded_groups(taps) ? 8 : 16;
}

void resample_avx2_pack(const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, int32_t *packed) {
    // The parts of taps past the last, and of the missing odd output, stay 0.
    memset(packed, 0, (size_t)resample_avx2_packed_count(taps, outputs) * sizeof *packed);
    for (ptrdiff_t x = 0; x < outputs; x++) {
        for (ptrdiff_t t = 0; t < taps; t += 2) {
            const uint32_t first = (uint32_t)weights[x * taps + t];
            const uint32_t second = t + 1 < taps ? (uint32_t)weights[x * taps + t + 1] : 0;
            const ptrdiff_t index = packed_index(taps, x, t);
            for (int lane = 0; lane < 4; lane++) {
                packed[index + lane] = (int32_t)((first >> 11) | (second >> 11) << 16);
                packed[index + low_offset(taps, t) + lane] = (int32_t)((first & 0x7FF) | (second & 0x7FF) << 16);
            }
        }
    }
}

// Tap t's weight for output x, put back together from the packed parts.
static inline uint32_t packed_weight(const int32_t *packed, ptrdiff_t taps, ptrdiff_t x, ptrdiff_t t) {
    const ptrdiff_t index = packed_index(taps, x, t - t % 2);
    const int shift = t % 2 ? 16 : 0;
    return ((uint32_t)packed[index] >> shift & 0xFFFF) << 11 | ((uint32_t)packed[index + low_offset(taps, t)] >> shift & 0xFFFF);
}

// Output pixels a and b, whose windows start at bytes `a` and `b`, as 32-bit R, G, B, unused:
// a's in the lower half, b's in the upper. Reads 16 bytes per group of taps from each window,
// except that a lone last tap takes its pixel from bytes 12-14 of the group before, which that
// group's load holds already.
__attribute__((target("avx2"), always_inline))
static inline __m256i output_pair_avx2(const uint8_t *source, ptrdiff_t a, ptrdiff_t b, const int32_t *block,
                                       ptrdiff_t taps) {
    // 16-bit R0 R1 G0 G1 B0 B1 0 0 of the group's taps 0 and 1, then of taps 2 and 3.
    const __m256i first_taps = _mm256_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1,
                                                0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1);
    const __m256i second_taps = _mm256_setr_epi8(6, -1, 9, -1, 7, -1, 10, -1, 8, -1, 11, -1, -1, -1, -1, -1,
                                                 6, -1, 9, -1, 7, -1, 10, -1, 8, -1, 11, -1, -1, -1, -1, -1);
    // 16-bit R4 0 G4 0 B4 0 0 0: the lone tap after a group, paired with nothing.
    const __m256i lone_tap = _mm256_setr_epi8(12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, -1, -1, -1, -1,
                                              12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, -1, -1, -1, -1);
    const __m256i *weights = (const __m256i *)block;
    __m256i high = _mm256_setzero_si256(), low = high, bytes = high;
    for (ptrdiff_t g = 0; g < loaded_groups(taps); g++, a += 12, b += 12, weights += 4) {
        bytes = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(source + a))), _mm_loadu_si128((const __m128i *)(source + b)), 1);
        const __m256i first = _mm256_shuffle_epi8(bytes, first_taps), second = _mm256_shuffle_epi8(bytes, second_taps);
        high = _mm256_add_epi32(high, _mm256_add_epi32(_mm256_madd_epi16(first, _mm256_loadu_si256(weights)),
                                                       _mm256_madd_epi16(second, _mm256_loadu_si256(weights + 1))));
        low = _mm256_add_epi32(low, _mm256_add_epi32(_mm256_madd_epi16(first, _mm256_loadu_si256(weights + 2)),
                                                     _mm256_madd_epi16(second, _mm256_loadu_si256(weights + 3))));
    }
    if (lone_last_tap(taps)) {
        const __m256i last = _mm256_shuffle_epi8(bytes, lone_tap);
        high = _mm256_add_epi32(high, _mm256_madd_epi16(last, _mm256_loadu_si256(weights)));
        low = _mm256_add_epi32(low, _mm256_madd_epi16(last, _mm256_loadu_si256(weights + 1)));
    }
    const __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(high, 11), low), _mm256_set1_epi32(ROUNDING));
    return _mm256_srli_epi32(sum, PRECISION_BITS);
}

// The pass for `taps` taps: inlined with the common counts as constants, so that the loop over
// the groups unrolls away.
__attribute__((target("avx2"), always_inline))
static inline void horizontal_avx2(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                                   const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target) {
    const ptrdiff_t row_bytes = source_pixels * 3, ints = pair_ints(taps), last_load = (loaded_groups(taps) - 1) * 12;
    // After the packs, pixel a, c, b, d's words sit in 32-bit lanes 0, 1, 4, 5.
    const __m256i in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m128i three_bytes = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    ptrdiff_t x = 0;
    // Four outputs a step while the last one's loads stay inside the row (windows only move right).
    for (; x + 4 <= outputs && starts[x + 3] * 3 + last_load + 16 <= row_bytes; x += 4) {
        const __m256i ab = output_pair_avx2(source, starts[x] * 3, starts[x + 1] * 3, packed + x / 2 * ints, taps);
        const __m256i cd = output_pair_avx2(source, starts[x + 2] * 3, starts[x + 3] * 3, packed + (x / 2 + 1) * ints, taps);
        const __m256i words = _mm256_packus_epi32(ab, cd);
        const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words, words), in_order);
        const __m128i pixels = _mm_shuffle_epi8(_mm256_castsi256_si128(bytes), three_bytes);
        // 12 bytes are due; a 16-byte store is cheaper where the row has room for it, and the
        // next step overwrites the 4 bytes past them.
        if ((x + 4) * 3 + 4 <= outputs * 3) {
            _mm_storeu_si128((__m128i *)(target + x * 3), pixels);
        } else {
            uint8_t bytes12[16];
            _mm_storeu_si128((__m128i *)bytes12, pixels);
            memcpy(target + x * 3, bytes12, 12);
        }
    }
    // The row's last outputs, channel by channel, reading no byte past the row.
    for (; x < outputs; x++) {
        const uint8_t *window = source + starts[x] * 3;
        for (int channel = 0; channel < 3; channel++) {
            uint32_t sum = ROUNDING;
            for (ptrdiff_t t = 0; t < taps; t++) sum += (uint32_t)window[t * 3 + channel] * packed_weight(packed, taps, x, t);
            target[x * 3 + channel] = (uint8_t)(sum >> PRECISION_BITS);
        }
    }
}

__attribute__((target("avx2")))
void resample_horizontal_avx2(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                              const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target) {
    // Downscales by up to 4:1 (a 640 x 480 frame's crop is 2.1:1, a 256 x 256 leaf's 1.1:1).
    switch (taps) {
#define PASS_WITH(count) \
    case count: return horizontal_avx2(source, source_pixels, starts, packed, count, outputs, target);
    PASS_WITH(2) PASS_WITH(3) PASS_WITH(4) PASS_WITH(5) PASS_WITH(6) PASS_WITH(7) PASS_WITH(8) PASS_WITH(9)
#undef PASS_WITH
    default: return horizontal_avx2(source, source_pixels, starts, packed, taps, outputs, target);
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
