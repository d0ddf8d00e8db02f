#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Where to jump on a libpng error, and where the facts of the failure go.
typedef struct {
    jmp_buf jump;
    PLPNGResult *result;
} PNGContext;

static void on_error(png_structp png, png_const_charp text) {
    PNGContext *context = png_get_error_ptr(png);
    context->result->fact = PL_PNG_FACT_LIBPNG;
    snprintf(context->result->libpng_message, sizeof context->result->libpng_message, "%s", text);
    longjmp(context->jump, 1);
}

// libpng warns about benign things (unknown chunks, bad ancillary CRCs it skips); stay quiet.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static uint32_t read_be32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

// Where the chunk starting at offset ends (length, type, data, CRC), or size if it runs past the
// data.
static size_t chunk_end(const uint8_t *data, size_t size, size_t offset) {
    if (size - offset < 8) return size;
    uint64_t end = (uint64_t)offset + 12 + read_be32(data + offset);
    return end < size ? (size_t)end : size;
}

// libpng reads every chunk but IDAT whole into memory (in push mode it even buffers the file
// until the chunk is complete), so a chunk that declares 2^31 bytes is refused here, naming it,
// before libpng allocates anything for it.
static int chunks_fit_budget(const uint8_t *data, size_t size, uint64_t max_chunk_bytes, PLPNGResult *result) {
    for (size_t offset = 8; size - offset >= 8; offset = chunk_end(data, size, offset)) {
        const uint8_t *type = data + offset + 4;
        uint32_t length = read_be32(data + offset);
        if (memcmp(type, "IDAT", 4) != 0 && length > max_chunk_bytes) {
            result->fact = PL_PNG_FACT_CHUNK_SIZE;
            memcpy(result->chunk_type, type, 4);
            result->chunk_length = length;
            return 0;
        }
        if (memcmp(type, "IEND", 4) == 0) break;
    }
    return 1;
}

typedef struct {
    PNGContext context;  // first: libpng's error pointer is a pointer to this
    const PLPNGLimits *limits;
    const PLPNGRowSink *sink;
    PLPNGResult *result;
    int status;          // what stopping the decode means (libpng errors: PL_PNG_CORRUPT)
    uint32_t width, height;
    uint8_t *image;      // the whole RGB image, for interlaced files only
    int finished;        // the last row is delivered (or, interlaced, IEND was reached)
} DecodeState;

// Stops the decode as a libpng error would, with PlantLeaf's own status and fact.
static void fail(DecodeState *state, int status, int fact) {
    state->status = status;
    state->result->fact = fact;
    longjmp(state->context.jump, 1);
}

static void on_info(png_structp png, png_infop info) {
    DecodeState *state = png_get_progressive_ptr(png);
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    state->result->width = state->width = width;  // reported so the caller can say how large it claimed to be
    state->result->height = state->height = height;
    if ((uint64_t)width * height > state->limits->max_pixels)
        fail(state, PL_PNG_TOO_LARGE, PL_PNG_FACT_NONE);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    // Expanding a palette also turns its tRNS into an alpha channel: strip that one too.
    if ((color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)) png_set_strip_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 3) fail(state, PL_PNG_CORRUPT, PL_PNG_FACT_ROW_LAYOUT);
    if (interlace != PNG_INTERLACE_NONE) {
        // Adam7 fills every row in several passes, so the rows are complete only at the end.
        uint64_t bytes = (uint64_t)width * height * 3;
        if (bytes > state->limits->max_image_bytes) fail(state, PL_PNG_OVER_BUDGET, PL_PNG_FACT_INTERLACED_IMAGE);
        state->image = calloc(1, (size_t)bytes);
        if (state->image == NULL) fail(state, PL_PNG_NO_MEMORY, PL_PNG_FACT_NONE);
    }
    if (state->sink->begin(state->sink->context, width, height) != 0) fail(state, PL_PNG_CANCELLED, PL_PNG_FACT_NONE);
}

static void on_row(png_structp png, png_bytep row, png_uint_32 y, int pass) {
    (void)pass;
    DecodeState *state = png_get_progressive_ptr(png);
    if (row == NULL || y >= state->height) return;
    if (state->image != NULL) {
        png_progressive_combine_row(png, state->image + (size_t)y * state->width * 3, row);
        return;
    }
    state->sink->row(state->sink->context, row, y);
    if (y + 1 == state->height) state->finished = 1;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    DecodeState *state = png_get_progressive_ptr(png);
    state->finished = 1;
}

int pl_png_decode(const uint8_t *data, size_t size, const PLPNGLimits *limits, const PLPNGRowSink *sink,
                  PLPNGResult *result) {
    memset(result, 0, sizeof *result);
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        result->fact = PL_PNG_FACT_SIGNATURE;
        return PL_PNG_CORRUPT;
    }
    if (!chunks_fit_budget(data, size, limits->max_chunk_bytes, result)) return PL_PNG_OVER_BUDGET;
    DecodeState state = {.context = {.result = result},
                         .limits = limits, .sink = sink, .result = result, .status = PL_PNG_CORRUPT};
    // Callbacks change the state between setjmp and longjmp: read it back through this.
    DecodeState *volatile current = &state;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state.context, on_error, on_warning);
    if (png == NULL) return PL_PNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (info == NULL || setjmp(state.context.jump)) {
        free(current->image);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return current->status;
    }
    png_set_user_limits(png, limits->max_side, limits->max_side);
    png_set_chunk_malloc_max(png, (png_alloc_size_t)limits->max_chunk_bytes);
    png_set_chunk_cache_max(png, limits->max_cached_chunks);
    png_set_progressive_read_fn(png, &state, on_info, on_row, on_end);
    // Fed a chunk at a time (big IDATs in pieces). Once the last row is out, the chunk holding
    // it is finished, so its CRC is checked, and nothing after it is given to libpng: extra
    // image data is never inflated, later chunks never read.
    png_process_data(png, info, (png_bytep)data, 8);
    for (size_t offset = 8; offset < size && !current->finished;) {
        size_t end = chunk_end(data, size, offset);
        while (offset < end) {
            size_t piece = end - offset < 65536 ? end - offset : 65536;
            png_process_data(png, info, (png_bytep)data + offset, piece);
            offset += piece;
        }
    }
    if (!current->finished) fail(&state, PL_PNG_TRUNCATED, PL_PNG_FACT_END_OF_DATA);
    if (state.image != NULL)
        for (uint32_t y = 0; y < state.height; y++) sink->row(sink->context, state.image + (size_t)y * state.width * 3, y);
    free(state.image);
    png_destroy_read_struct(&png, &info, NULL);
    return PL_PNG_OK;
}
