#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// jpeglib.h needs FILE and size_t declared first, jerror.h needs jpeglib.h.
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;  // first, so libjpeg's pointer to it is a pointer to this
    jmp_buf jump;
    char *message;
    size_t message_size;
    int status;           // what the error or the first serious warning means
    const PLJPEGLimits *limits;
    uint64_t scan_work;   // progressive work so far (see PLJPEGLimits)
    int last_scan;        // the scan scan_work last counted
} ErrorManager;

static void stop(ErrorManager *errors, int status, const char *text) {
    errors->status = status;
    if (text != NULL) snprintf(errors->message, errors->message_size, "%s", text);
    longjmp(errors->jump, 1);
}

// What a libjpeg error means: most are damage; some are kinds of JPEG this build cannot
// decode, and two are the memory budget (libjpeg asks for a backing store when the whole-image
// buffers will not fit in max_memory_to_use, and this build has none).
static void on_error_exit(j_common_ptr cinfo) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->base.format_message(cinfo, text);
    char explained[JMSG_LENGTH_MAX + 96];
    switch (errors->base.msg_code) {
    case JERR_BAD_PRECISION:
        snprintf(explained, sizeof explained, "%d-bit samples (only 8-bit JPEGs are)", errors->base.msg_parm.i[0]);
        stop(errors, PL_JPEG_UNSUPPORTED, explained);
        break;
    case JERR_SOF_UNSUPPORTED: {
        int type = errors->base.msg_parm.i[0] - 0xC0;  // the SOFn marker's n
        const char *kind = (type & 3) == 3 ? "lossless" : (type & 3) != 0 && type > 4 ? "hierarchical" : "this coding process";
        snprintf(explained, sizeof explained, "%s JPEG (SOF%d)", kind, type);
        stop(errors, PL_JPEG_UNSUPPORTED, explained);
        break;
    }
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY:
        if (errors->limits == NULL) stop(errors, PL_JPEG_NO_MEMORY, text);  // encoding: no budget set
        snprintf(explained, sizeof explained, "needs more than the %llu MiB decoder memory budget (%s)",
                 (unsigned long long)(errors->limits->max_memory >> 20), text);
        stop(errors, PL_JPEG_OVER_BUDGET, explained);
        break;
    default:
        stop(errors, errors->status == PL_JPEG_OK ? PL_JPEG_CORRUPT : errors->status, text);
    }
}

// Level -1 is a warning (recoverable corruption); positive levels are trace output. The
// first warning's text is kept, unless a later one says data is missing: running out of data,
// before the end marker or at one, fails the decode however lenient it is.
static void on_message(j_common_ptr cinfo, int level) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    if (level >= 0) return;
    int code = errors->base.msg_code;
    int missing = code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER;
    if (errors->base.num_warnings == 0 || (missing && errors->status == PL_JPEG_OK)) {
        char text[JMSG_LENGTH_MAX];
        errors->base.format_message(cinfo, text);
        if (code == JWRN_HIT_MARKER)
            snprintf(errors->message, errors->message_size, "a scan's entropy-coded data stops before its last block (%s)", text);
        else
            snprintf(errors->message, errors->message_size, "%s", text);
    }
    if (missing && errors->status == PL_JPEG_OK) errors->status = code == JWRN_JPEG_EOF ? PL_JPEG_TRUNCATED : PL_JPEG_MISSING_DATA;
    errors->base.num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_error_manager(ErrorManager *errors, char *message, size_t message_size, const PLJPEGLimits *limits) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = on_error_exit;
    errors->base.emit_message = on_message;
    errors->base.output_message = on_output_message;
    errors->message = message;
    errors->message_size = message_size;
    errors->status = PL_JPEG_OK;
    errors->limits = limits;
    errors->scan_work = 0;
    errors->last_scan = 0;
}

// A progressive file can hold thousands of scans, each a pass over the whole image: the work
// budget stops it once the scans read so far cost more than the limit.
static void count_scan_work(j_common_ptr cinfo) {
    j_decompress_ptr decoder = (j_decompress_ptr)cinfo;
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    if (decoder->input_scan_number == errors->last_scan) return;
    errors->last_scan = decoder->input_scan_number;
    errors->scan_work += (uint64_t)decoder->image_width * decoder->image_height + 65536;
    if (errors->scan_work > errors->limits->max_scan_work) {
        char text[160];
        snprintf(text, sizeof text, "%d progressive scans of %ux%u pixels exceed the work budget (%llu pixel-scans)",
                 decoder->input_scan_number, decoder->image_width, decoder->image_height,
                 (unsigned long long)errors->limits->max_scan_work);
        stop(errors, PL_JPEG_OVER_BUDGET, text);
    }
}

// libjpeg marks in coef_bits which coefficients a progressive file's scans have sent (-1:
// none yet). Once the whole file is read, one still at -1 was never coded: a download cut short
// at a scan boundary, or a file with fewer scans than a picture needs.
static void require_every_coefficient(j_decompress_ptr decoder, ErrorManager *errors) {
    if (!decoder->progressive_mode || decoder->coef_bits == NULL) return;
    for (int component = 0; component < decoder->num_components; component++) {
        int missing = 0;
        for (int k = 0; k < DCTSIZE2; k++) missing += decoder->coef_bits[component][k] < 0;
        if (missing > 0) {
            char text[160];
            snprintf(text, sizeof text, "progressive scans never sent %d of the 64 coefficients of component %d%s",
                     missing, component + 1, decoder->coef_bits[component][0] < 0 ? ", its DC among them" : "");
            stop(errors, PL_JPEG_MISSING_DATA, text);
        }
    }
}

static const uint8_t *find_exif(j_decompress_ptr decoder, size_t *size) {
    for (jpeg_saved_marker_ptr marker = decoder->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6) continue;
        if (memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
        *size = marker->data_length;
        return marker->data;
    }
    *size = 0;
    return NULL;
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

int pl_jpeg_decode(const uint8_t *data, size_t size, uint32_t min_width, uint32_t min_height,
                   const PLJPEGLimits *limits, int strict, const PLJPEGRowSink *sink, PLJPEGResult *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct decoder;
    ErrorManager errors;
    struct jpeg_progress_mgr progress = {.progress_monitor = count_scan_work};
    install_error_manager(&errors, result->message, sizeof result->message, limits);
    decoder.err = &errors.base;
    // Written after setjmp and read after a longjmp back to it, so they must be volatile.
    uint8_t *volatile rows = NULL;
    uint8_t *volatile cmyk_row = NULL;
    if (setjmp(errors.jump)) {
        free(rows);
        free(cmyk_row);
        jpeg_destroy_decompress(&decoder);
        return errors.status;
    }
    jpeg_create_decompress(&decoder);
    decoder.mem->max_memory_to_use = (long)limits->max_memory;
    decoder.progress = &progress;
    jpeg_mem_src(&decoder, data, (unsigned long)size);
    jpeg_save_markers(&decoder, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decoder, TRUE);
    result->source_width = decoder.image_width;
    result->source_height = decoder.image_height;
    if ((uint64_t)decoder.image_width * decoder.image_height > limits->max_pixels)
        stop(&errors, PL_JPEG_TOO_LARGE, "image is larger than the decode limit");

    int cmyk = decoder.jpeg_color_space == JCS_CMYK || decoder.jpeg_color_space == JCS_YCCK;
    decoder.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    decoder.scale_num = choose_scale(decoder.image_width, decoder.image_height, min_width, min_height);
    decoder.scale_denom = 8;
    // A multi-scan file is read whole here, before the first row comes out.
    jpeg_start_decompress(&decoder);
    require_every_coefficient(&decoder, &errors);

    uint32_t width = decoder.output_width, height = decoder.output_height;
    size_t exif_size;
    const uint8_t *exif = find_exif(&decoder, &exif_size);
    if (sink->begin(sink->context, width, height, exif, exif_size) != 0) stop(&errors, PL_JPEG_CANCELLED, "cancelled");
    enum { BATCH = 4 };  // rows asked of libjpeg per call
    rows = malloc((size_t)width * 3 * BATCH);
    if (cmyk) cmyk_row = malloc((size_t)width * 4);
    if (rows == NULL || (cmyk && cmyk_row == NULL)) stop(&errors, PL_JPEG_NO_MEMORY, "out of memory for a row");
    while (decoder.output_scanline < height) {
        uint32_t first = decoder.output_scanline;
        JDIMENSION got;
        if (cmyk) {
            JSAMPROW target = cmyk_row;
            got = jpeg_read_scanlines(&decoder, &target, 1);
            cmyk_row_to_rgb(cmyk_row, rows, width, decoder.saw_Adobe_marker);
        } else {
            JSAMPROW targets[BATCH];
            JDIMENSION batch = height - first < BATCH ? height - first : BATCH;
            for (JDIMENSION i = 0; i < batch; i++) targets[i] = rows + (size_t)i * width * 3;
            got = jpeg_read_scanlines(&decoder, targets, batch);
        }
        for (JDIMENSION i = 0; i < got; i++) sink->row(sink->context, rows + (size_t)i * width * 3, first + i);
    }
    jpeg_finish_decompress(&decoder);
    if (errors.status != PL_JPEG_OK || (strict && errors.base.num_warnings > 0))
        stop(&errors, errors.status != PL_JPEG_OK ? errors.status : PL_JPEG_CORRUPT, NULL);
    free(rows);
    free(cmyk_row);
    jpeg_destroy_decompress(&decoder);
    return PL_JPEG_OK;
}

int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct encoder;
    ErrorManager errors;
    install_error_manager(&errors, message, message_size, NULL);
    encoder.err = &errors.base;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&encoder);
        free(buffer);
        return errors.status;
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
