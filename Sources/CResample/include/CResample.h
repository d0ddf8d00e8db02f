// The imaging inner loops with SIMD intrinsics (the resize, YUV conversion and the verdict's
// picture statistics): SSE4.1, AVX2 and AVX-512 on x86_64 (compiled with target attributes, so the
// package builds with default flags and the CPU is asked at run time), NEON on aarch64. Each
// computes exactly what the portable loops compute, bit for bit: for the resize the same 22-bit
// fixed-point weights, the same rounding term, the same shift. Which set runs is the caller's
// choice; `resample_cpu_kernels` only reports what this CPU can run.
#ifndef PLANTLEAF_CRESAMPLE_H
#define PLANTLEAF_CRESAMPLE_H

#include <stddef.h>
#include <stdint.h>

// Bits of resample_cpu_kernels().
enum {
    PL_RESAMPLE_SSE41 = 1,
    PL_RESAMPLE_AVX2 = 2,
    PL_RESAMPLE_NEON = 4,
    // AVX-512 F, BW, VL, VBMI and VNNI, all of which its horizontal pass uses.
    PL_RESAMPLE_AVX512 = 8,
};

// The kernel sets this CPU runs (a mask of PL_RESAMPLE_*); 0 where none is compiled in.
int32_t resample_cpu_kernels(void);

// Horizontal pass of one row of RGB pixels (3 bytes each, `source_pixels` of them): output pixel
// x is the sum over t < taps of source pixel starts[x] + t times weights[x * taps + t], plus
// 2^21, shifted right by 22. Every window lies inside the row, and the weights keep every sum
// within a byte. Writes outputs x 3 bytes.
void resample_horizontal_sse41(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                               const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target);
void resample_horizontal_neon(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                              const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target);

// The AVX2 horizontal pass multiplies 16-bit pairs, one output pixel per 128-bit half, so it
// takes the weights split and laid out for it once per kernel: resample_avx2_packed_count int32
// values, filled by resample_avx2_pack.
ptrdiff_t resample_avx2_packed_count(ptrdiff_t taps, ptrdiff_t outputs);
void resample_avx2_pack(const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs, int32_t *packed);
void resample_horizontal_avx2(const uint8_t *source, ptrdiff_t source_pixels, const ptrdiff_t *starts,
                              const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs, uint8_t *target);

// The AVX-512 horizontal pass: 16 output channels per vector, each vector's pixels from one
// 64-byte load of the row. It takes resample_avx512_packed_count int32 values filled by
// resample_avx512_pack, which returns 0 (and the pass must not run) when a vector's windows do
// not fit in 64 bytes, as at downscales past about 3:1 or rows under 22 pixels.
ptrdiff_t resample_avx512_packed_count(ptrdiff_t taps, ptrdiff_t outputs);
int32_t resample_avx512_pack(const ptrdiff_t *starts, const int32_t *weights, ptrdiff_t taps, ptrdiff_t outputs,
                             ptrdiff_t source_pixels, int32_t *packed);
void resample_horizontal_avx512(const uint8_t *source, const int32_t *packed, ptrdiff_t taps, ptrdiff_t outputs,
                                uint8_t *target);

// Vertical pass: byte i of the target is the sum over t < taps of rows[t][i] times weights[t],
// plus 2^21, shifted right by 22, for i < bytes.
void resample_vertical_sse41(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                             uint8_t *target);
void resample_vertical_avx2(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                            uint8_t *target);
void resample_vertical_neon(const uint8_t *const *rows, const int32_t *weights, ptrdiff_t taps, ptrdiff_t bytes,
                            uint8_t *target);

// YUV rows to RGB (3 bytes a pixel), BT.601 limited range to full range in 8-bit fixed point:
// with L = 298 (Y - 16) + 128, R = (L + 409 (Cr - 128)) >> 8, G = (L - 100 (Cb - 128) - 208
// (Cr - 128)) >> 8, B = (L + 516 (Cb - 128)) >> 8, each clamped to a byte. YUYV rows are
// Y0 Cb Y1 Cr for each pair of pixels (`pixels` even); NV12 pixel x takes the Cb Cr pair at
// chroma + (x / 2) * 2. The portable loops are the reference; the SIMD ones give the same bytes.
void yuv_yuyv_rgb_portable(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb);
void yuv_nv12_rgb_portable(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb);
void yuv_yuyv_rgb_sse41(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb);
void yuv_nv12_rgb_sse41(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb);
void yuv_yuyv_rgb_avx2(const uint8_t *yuyv, ptrdiff_t pixels, uint8_t *rgb);
void yuv_nv12_rgb_avx2(const uint8_t *luma, const uint8_t *chroma, ptrdiff_t pixels, uint8_t *rgb);

// Asks the CPU to bring `bytes` bytes at `start` into its caches ahead of their use (a frame's
// next rows, read while the current one is converted).
void frame_prefetch(const uint8_t *start, ptrdiff_t bytes);

// The verdict's readings of one row of RGB pixels (3 bytes each), as PictureStatistics.add in
// Swift takes them: with luma Y = 77 R + 150 G + 29 B, the sums of Y and Y^2; the pixels with
// R + G + B >= 90 and 20 (2G - R - B) > R + G + B; the pixels with 32 * 256 <= Y <= 224 * 256,
// and those of them whose 3 bytes equal the next pixel's.
typedef struct {
    int64_t luma_sum;
    int64_t luma_square_sum;
    int64_t green_pixels;
    int64_t midtone_pixels;
    int64_t flat_midtone_pixels;
} pl_picture_row;

// Fills `sums` for the row's `pixels` pixels, 8 at a time.
void picture_row_avx2(const uint8_t *row, ptrdiff_t pixels, pl_picture_row *sums);
// The same with NEON, 16 pixels at a time.
void picture_row_neon(const uint8_t *row, ptrdiff_t pixels, pl_picture_row *sums);

#endif
