#include "CPNGEncoder.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// The PNG written so far.
typedef struct {
    uint8_t *output;
    size_t output_size;
    size_t output_capacity;
} EncodeContext;

static void write_to_memory(png_structp png, png_bytep source, size_t length) {
    EncodeContext *context = png_get_io_ptr(png);
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
                  uint8_t **out, size_t *out_size) {
    EncodeContext context = {0};
    // libpng's own error and warning functions: they print on stderr, and an error jumps to the
    // setjmp below.
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return PL_PNG_ENCODE_FAILED;
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile row_pointers = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        free(row_pointers);
        free(context.output);
        png_destroy_write_struct(&png, info ? &info : NULL);
        return PL_PNG_ENCODE_FAILED;
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
    return PL_PNG_ENCODED;
}
