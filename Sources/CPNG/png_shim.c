#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Shared by reading and writing: where to jump on a libpng error and what it said.
typedef struct {
    jmp_buf jump;
    char *message;
    size_t message_size;
    const uint8_t *input;
    size_t input_size;
    size_t input_offset;
    uint8_t *output;
    size_t output_size;
    size_t output_capacity;
} PNGContext;

static void on_error(png_structp png, png_const_charp text) {
    PNGContext *context = png_get_error_ptr(png);
    snprintf(context->message, context->message_size, "%s", text);
    longjmp(context->jump, 1);
}

// libpng warns about benign things (unknown chunks, bad ancillary CRCs it skips); stay quiet.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_from_memory(png_structp png, png_bytep destination, size_t length) {
    PNGContext *context = png_get_io_ptr(png);
    if (length > context->input_size - context->input_offset) png_error(png, "file is truncated");
    memcpy(destination, context->input + context->input_offset, length);
    context->input_offset += length;
}

int pl_png_decode_rgb(const uint8_t *data, size_t size, uint64_t max_pixels, PLPNGImage *image) {
    memset(image, 0, sizeof *image);
    PNGContext context = {.message = image->message, .message_size = sizeof image->message,
                          .input = data, .input_size = size};
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(image->message, sizeof image->message, "not a PNG signature");
        return PL_PNG_CORRUPT;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    if (png == NULL) return PL_PNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    // Written after setjmp and read after a longjmp back to it, so they must be volatile.
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int status = PL_PNG_CORRUPT;
    if (info == NULL || setjmp(context.jump)) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return status;
    }
    png_set_read_fn(png, &context, read_from_memory);
    png_read_info(png, info);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * height > max_pixels) {
        image->width = width;  // reported so the caller can say how large it claimed to be
        image->height = height;
        status = PL_PNG_TOO_LARGE;
        png_error(png, "image is larger than the decode limit");
    }
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    // Expanding a palette also turns its tRNS into an alpha channel: strip that one too.
    if ((color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)) png_set_strip_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 3) png_error(png, "unexpected row layout after transforms");

    pixels = malloc((size_t)width * height * 3);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) {
        status = PL_PNG_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 3;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    image->pixels = pixels;
    image->width = width;
    image->height = height;
    return PL_PNG_OK;
}

void pl_png_image_free(PLPNGImage *image) {
    free(image->pixels);
    image->pixels = NULL;
}

static void write_to_memory(png_structp png, png_bytep source, size_t length) {
    PNGContext *context = png_get_io_ptr(png);
    if (context->output_size + length > context->output_capacity) {
        size_t capacity = context->output_capacity ? context->output_capacity : 4096;
        while (capacity < context->output_size + length) capacity *= 2;
        uint8_t *grown = realloc(context->output, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        context->output = grown;
        context->output_capacity = capacity;
    }
    memcpy(context->output + context->output_size, source, length);
    context->output_size += length;
}

static void flush_memory(png_structp png) { (void)png; }

int pl_png_encode(const uint8_t *rows, uint32_t width, uint32_t height, int color_type, int bit_depth,
                  int interlaced, const uint8_t *palette_rgb, int palette_entries,
                  const uint8_t *transparency, int transparency_entries,
                  uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    PNGContext context = {.message = message, .message_size = message_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    if (png == NULL) return PL_PNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile row_pointers = NULL;
    if (info == NULL || setjmp(context.jump)) {
        free(row_pointers);
        free(context.output);
        png_destroy_write_struct(&png, info ? &info : NULL);
        return PL_PNG_CORRUPT;
    }
    png_set_write_fn(png, &context, write_to_memory, flush_memory);
    png_set_IHDR(png, info, width, height, bit_depth, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette_entries > 0) {
        png_color palette[256];
        for (int i = 0; i < palette_entries && i < 256; i++) {
            palette[i].red = palette_rgb[3 * i];
            palette[i].green = palette_rgb[3 * i + 1];
            palette[i].blue = palette_rgb[3 * i + 2];
        }
        png_set_PLTE(png, info, palette, palette_entries);
    }
    if (transparency_entries > 0) {
        if (color_type == PNG_COLOR_TYPE_PALETTE) {
            png_set_tRNS(png, info, transparency, transparency_entries, NULL);
        } else {
            // For gray/RGB images tRNS names one colour: 16-bit samples, gray or r,g,b.
            png_color_16 colour = {0};
            colour.gray = colour.red = transparency[0];
            if (transparency_entries >= 3) {
                colour.green = transparency[1];
                colour.blue = transparency[2];
            }
            png_set_tRNS(png, info, NULL, 0, &colour);
        }
    }
    png_write_info(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    row_pointers = malloc(sizeof(png_bytep) * height);
    if (row_pointers == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) row_pointers[y] = (png_bytep)rows + (size_t)y * row_bytes;
    png_write_image(png, row_pointers);
    png_write_end(png, NULL);
    free(row_pointers);
    png_destroy_write_struct(&png, &info);
    *out = context.output;
    *out_size = context.output_size;
    return PL_PNG_OK;
}
