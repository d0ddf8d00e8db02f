// The horizontal pass with AVX-512 (F, BW, VL, VBMI and VNNI, as Intel Ice Lake and AMD Zen 4
// have them). AVX2's byte shuffles stay within 128-bit halves, so its pass keeps one output pixel
// per half and leaves a lane of four unused; AVX-512 VBMI's byte permute reaches all 64 bytes of
// a register, so here the 16 lanes of a vector are 16 consecutive output channels (R0 G0 B0 R1 …)
// with none unused, and the sums come out already in the row's byte order.
#if defined(__x86_64__)

#include "CResample.h"

#include <immintrin.h>
#include <string.h>

enum { PRECISION_BITS = 22, ROUNDING = 1 << (PRECISION_BITS - 1), LANES = 16, VECTOR_BYTES = 64 };

// Per vector of 16 output channels: one vector of byte indices, then per pair of taps the high
// and the low weight parts (as the AVX2 pass splits them: bits above 11, low 11 bits, both
// within a signed 16-bit value), the pair's two values side by side in each 32-bit lane.
static inline ptrdiff_t tap_pairs(ptrdiff_t taps) { return (taps + 1) / 2; }
static inline ptrdiff_t vector_count(ptrdiff_t outputs) { return (outputs * 3 + LANES - 1) / LANES; }
static inline ptrdiff_t vector_ints(ptrdiff_t taps) { return LANES + tap_pairs(taps) * 2 * LANES; }

ptrdiff_t resample_avx512_packed_count(ptrdiff_t taps, ptrdiff_t outputs) {
    // The vectors, then each vector's first byte in the row.
    return vector_count(outputs) * (vector_ints(taps) + 1);
}

int32_t resample_avx512_pack(const ptrdiff_t *starts, const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs,
                             ptrdiff_t source_pixels, int32_t *packed) {
    const ptrdiff_t row_bytes = source_pixels * 3, vectors = vector_count(outputs);
    if (row_bytes < VECTOR_BYTES) return 0;
    memset(packed, 0, (size_t)resample_avx512_packed_count(taps, outputs) * sizeof *packed);
    int32_t *offsets = packed + vectors * vector_ints(taps);
    for (ptrdiff_t v = 0; v < vectors; v++) {
        // The bytes this vector's channels read lie within the first output's window start and
        // the last output's window end (windows only move right). One load of 64 bytes must hold
        // them all, and stay inside the row.
        const ptrdiff_t first = v * LANES, last = first + LANES - 1 < outputs * 3 ? first + LANES - 1 : outputs * 3 - 1;
        const ptrdiff_t lowest = starts[first / 3] * 3, highest = (starts[last / 3] + taps) * 3 - 1;
        const ptrdiff_t offset = lowest < row_bytes - VECTOR_BYTES ? lowest : row_bytes - VECTOR_BYTES;
        if (highest - offset >= VECTOR_BYTES) return 0;
        offsets[v] = (int32_t)offset;
        int32_t *vector = packed + v * vector_ints(taps);
        for (ptrdiff_t lane = 0; lane < LANES && first + lane < outputs * 3; lane++) {
            const ptrdiff_t x = (first + lane) / 3, channel = (first + lane) % 3;
            const ptrdiff_t byte = starts[x] * 3 + channel - offset;
            // Bytes 0 and 2 of the lane pick the first pair's two pixels; bytes 1 and 3 are
            // zeroed. Each later pair reads 6 bytes on, added in the loop; a missing last tap's
            // index may pass 63, and the permute then reads some byte of the 64 (it uses the low
            // 6 bits), which its weight of 0 cancels.
            vector[lane] = (int32_t)(byte | (byte + 3) << 16);
            for (ptrdiff_t t = 0; t < taps; t++) {
                const uint32_t weight = (uint32_t)weights[x * taps + t];
                const int shift = t % 2 ? 16 : 0;
                int32_t *high = vector + LANES + t / 2 * 2 * LANES, *low = high + LANES;
                high[lane] |= (int32_t)((weight >> 11) << shift);
                low[lane] |= (int32_t)((weight & 0x7FF) << shift);
            }
        }
    }
    return 1;
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni"), always_inline))
static inline void horizontal_avx512(const uint8_t *source, const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs,
                                     uint8_t *target) {
    const ptrdiff_t vectors = vector_count(outputs), ints = vector_ints(taps), bytes = outputs * 3;
    const int32_t *offsets = packed + vectors * ints;
    const __mmask64 low_bytes = 0x5555555555555555ull;
    const __m512i next_pair = _mm512_set1_epi8(6), rounding = _mm512_set1_epi32(ROUNDING);
    for (ptrdiff_t v = 0; v < vectors; v++) {
        const int32_t *vector = packed + v * ints;
        const __m512i pixels = _mm512_loadu_si512(source + offsets[v]);
        __m512i indices = _mm512_loadu_si512(vector);
        __m512i high = _mm512_setzero_si512(), low = rounding;
        for (ptrdiff_t pair = 0; pair < tap_pairs(taps); pair++) {
            const __m512i values = _mm512_maskz_permutexvar_epi8(low_bytes, indices, pixels);
            const int32_t *weights = vector + LANES + pair * 2 * LANES;
            high = _mm512_dpwssd_epi32(high, values, _mm512_loadu_si512(weights));
            low = _mm512_dpwssd_epi32(low, values, _mm512_loadu_si512(weights + LANES));
            indices = _mm512_add_epi8(indices, next_pair);
        }
        const __m512i sums = _mm512_srli_epi32(_mm512_add_epi32(_mm512_slli_epi32(high, 11), low), PRECISION_BITS);
        const __m128i channels = _mm512_cvtusepi32_epi8(sums);
        if ((v + 1) * LANES <= bytes) {
            _mm_storeu_si128((__m128i *)(target + v * LANES), channels);
        } else {
            _mm_mask_storeu_epi8(target + v * LANES, (__mmask16)((1u << (bytes - v * LANES)) - 1), channels);
        }
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni")))
void resample_horizontal_avx512(const uint8_t *source, const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs,
                                uint8_t *target) {
    switch (taps) {
#define PASS_WITH(count) \
    case count: return horizontal_avx512(source, packed, count, outputs, target);
    PASS_WITH(2) PASS_WITH(3) PASS_WITH(4) PASS_WITH(5) PASS_WITH(6) PASS_WITH(7) PASS_WITH(8) PASS_WITH(9)
#undef PASS_WITH
    default: return horizontal_avx512(source, packed, taps, outputs, target);
    }
}

#endif
