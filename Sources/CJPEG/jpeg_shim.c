#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// jpeglib.h needs FILE and size_t declared first, jerror.h needs jpeglib.h.
#include <jpeglib.h>
#include <jerror.h>

// A progressive file can declare thousands of scans to make decoding crawl; real encoders
// write about ten. Past this many the file is refused.
enum { MAX_SCANS = 1000 };

typedef struct {
    struct jpeg_error_mgr base;  // first, so libjpeg's pointer to it is a pointer to this
    jmp_buf jump;
    char *message;
    size_t message_size;
    int truncated;
} ErrorManager;

static void on_error_exit(j_common_ptr cinfo) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->base.format_message(cinfo, text);
    snprintf(errors->message, errors->message_size, "%s", text);
    longjmp(errors->jump, 1);
}

// Level -1 is a warning (recoverable corruption); positive levels are trace output.
static void on_message(j_common_ptr cinfo, int level) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    if (level >= 0) return;
    if (errors->base.msg_code == JWRN_JPEG_EOF) errors->truncated = 1;
    if (errors->base.num_warnings == 0) {
        char text[JMSG_LENGTH_MAX];
        errors->base.format_message(cinfo, text);
        snprintf(errors->message, errors->message_size, "%s", text);
    }
    errors->base.num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_error_manager(ErrorManager *errors, char *message, size_t message_size) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = on_error_exit;
    errors->base.emit_message = on_message;
    errors->base.output_message = on_output_message;
    errors->message = message;
    errors->message_size = message_size;
    errors->truncated = 0;
}

static void limit_scans(j_common_ptr cinfo) {
    j_decompress_ptr decoder = (j_decompress_ptr)cinfo;
    if (decoder->input_scan_number > MAX_SCANS) {
        ErrorManager *errors = (ErrorManager *)cinfo->err;
        snprintf(errors->message, errors->message_size, "more than %d progressive scans", MAX_SCANS);
        longjmp(errors->jump, 1);
    }
}

static void copy_exif(j_decompress_ptr decoder, PLJPEGImage *image) {
    for (jpeg_saved_marker_ptr marker = decoder->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6) continue;
        if (memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
        image->exif = malloc(marker->data_length);
        if (image->exif != NULL) {
            memcpy(image->exif, marker->data, marker->data_length);
            image->exif_size = marker->data_length;
        }
        return;
    }
}

// The smallest of the scales 1/8, 1/4, 1/2 and 1/1 that still covers the requested size. Only
// these four have SIMD IDCTs in libjpeg-turbo (x86 and NEON): the others run scalar code that
// costs more than a full-size decode (measured on a 256x256 leaf: 7/8 0.61 ms against 8/8
// 0.37 ms; on 4000x3000: 3/8 31 ms against 4/8 26 ms). The resampler does the rest of the way.
static uint32_t choose_scale(uint32_t width, uint32_t height, uint32_t min_width, uint32_t min_height) {
    if (min_width == 0 || min_height == 0) return 8;
    for (uint32_t eighths = 1; eighths < 8; eighths *= 2) {
        uint64_t scaled_width = ((uint64_t)width * eighths + 7) / 8;
        uint64_t scaled_height = ((uint64_t)height * eighths + 7) / 8;
        if (scaled_width >= min_width && scaled_height >= min_height) return eighths;
    }
    return 8;
}

// Adobe CMYK JPEGs store inverted ink (255 = no ink); plain CMYK stores ink directly.
static void cmyk_row_to_rgb(const uint8_t *cmyk, uint8_t *rgb, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[3 * x] = (uint8_t)((c * k + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

int pl_jpeg_decode_rgb(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                       uint64_t max_pixels, int strict, PLJPEGImage *image) {
    memset(image, 0, sizeof *image);
    struct jpeg_decompress_struct decoder;
    ErrorManager errors;
    struct jpeg_progress_mgr progress = {.progress_monitor = limit_scans};
    install_error_manager(&errors, image->message, sizeof image->message);
    decoder.err = &errors.base;
    // Written after setjmp and read after a longjmp back to it, so they must be volatile.
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile cmyk_row = NULL;
    volatile int status = PL_JPEG_CORRUPT;
    if (setjmp(errors.jump)) {
        free(pixels);
        free(cmyk_row);
        free(image->exif);
        image->exif = NULL;
        image->exif_size = 0;
        jpeg_destroy_decompress(&decoder);
        return status;
    }
    jpeg_create_decompress(&decoder);
    decoder.progress = &progress;
    jpeg_mem_src(&decoder, data, (unsigned long)size);
    jpeg_save_markers(&decoder, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decoder, TRUE);
    image->source_width = decoder.image_width;
    image->source_height = decoder.image_height;
    if ((uint64_t)decoder.image_width * decoder.image_height > max_pixels) {
        status = PL_JPEG_TOO_LARGE;
        snprintf(image->message, sizeof image->message, "image is larger than the decode limit");
        longjmp(errors.jump, 1);
    }
    copy_exif(&decoder, image);

    int cmyk = decoder.jpeg_color_space == JCS_CMYK || decoder.jpeg_color_space == JCS_YCCK;
    decoder.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    decoder.scale_num = choose_scale(decoder.image_width, decoder.image_height, min_width, min_height);
    decoder.scale_denom = 8;
    jpeg_start_decompress(&decoder);

    uint32_t width = decoder.output_width, height = decoder.output_height;
    pixels = malloc((size_t)width * height * 3);
    if (cmyk) cmyk_row = malloc((size_t)width * 4);
    if (pixels == NULL || (cmyk && cmyk_row == NULL)) {
        status = PL_JPEG_NO_MEMORY;
        snprintf(image->message, sizeof image->message, "out of memory for %ux%u pixels", width, height);
        longjmp(errors.jump, 1);
    }
    while (decoder.output_scanline < height) {
        uint8_t *row = pixels + (size_t)decoder.output_scanline * width * 3;
        if (cmyk) {
            JSAMPROW target = cmyk_row;
            jpeg_read_scanlines(&decoder, &target, 1);
            cmyk_row_to_rgb(cmyk_row, row, width, decoder.saw_Adobe_marker);
        } else {
            JSAMPROW targets[4];
            JDIMENSION batch = height - decoder.output_scanline < 4 ? height - decoder.output_scanline : 4;
            for (JDIMENSION i = 0; i < batch; i++) targets[i] = row + (size_t)i * width * 3;
            jpeg_read_scanlines(&decoder, targets, batch);
        }
    }
    jpeg_finish_decompress(&decoder);
    if (errors.truncated || (strict && errors.base.num_warnings > 0)) {
        status = errors.truncated ? PL_JPEG_TRUNCATED : PL_JPEG_CORRUPT;
        longjmp(errors.jump, 1);
    }
    free(cmyk_row);
    jpeg_destroy_decompress(&decoder);
    image->pixels = pixels;
    image->width = width;
    image->height = height;
    return PL_JPEG_OK;
}

void pl_jpeg_image_free(PLJPEGImage *image) {
    free(image->pixels);
    free(image->exif);
    image->pixels = NULL;
    image->exif = NULL;
}

int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct encoder;
    ErrorManager errors;
    install_error_manager(&errors, message, message_size);
    encoder.err = &errors.base;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&encoder);
        free(buffer);
        return PL_JPEG_CORRUPT;
    }
    jpeg_create_compress(&encoder);
    jpeg_mem_dest(&encoder, (unsigned char **)&buffer, &buffer_size);
    encoder.image_width = width;
    encoder.image_height = height;
    encoder.input_components = components;
    encoder.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&encoder);
    jpeg_set_quality(&encoder, quality, TRUE);
    if (progressive) jpeg_simple_progression(&encoder);
    jpeg_start_compress(&encoder, TRUE);
    if (exif != NULL && exif_size > 0) jpeg_write_marker(&encoder, JPEG_APP0 + 1, exif, (unsigned int)exif_size);
    size_t stride = (size_t)width * components;
    while (encoder.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder.next_scanline * stride);
        jpeg_write_scanlines(&encoder, &row, 1);
    }
    jpeg_finish_compress(&encoder);
    jpeg_destroy_compress(&encoder);
    *out = buffer;
    *out_size = buffer_size;
    return PL_JPEG_OK;
}
