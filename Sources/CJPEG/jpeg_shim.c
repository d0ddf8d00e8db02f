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
    char *message;        // where libjpeg's text goes
    size_t message_size;
    PLJPEGResult *result; // the facts of a decode; NULL when encoding
    int status;           // what the error or the first serious warning means
    const PLJPEGLimits *limits;
    uint64_t scan_work;   // progressive work so far (see PLJPEGLimits)
    int last_scan;        // the scan scan_work last counted
} ErrorManager;

// Keeps libjpeg's own text of the message it is handling.
static void keep_message(j_common_ptr cinfo, ErrorManager *errors) {
    char text[JMSG_LENGTH_MAX];
    errors->base.format_message(cinfo, text);
    snprintf(errors->message, errors->message_size, "%s", text);
}

static void set_fact(ErrorManager *errors, int fact) {
    if (errors->result != NULL) errors->result->fact = fact;
}

static void stop(ErrorManager *errors, int status) {
    errors->status = status;
    longjmp(errors->jump, 1);
}

// What a libjpeg error means: most are damage; some are kinds of JPEG this build cannot
// decode, and two are the memory budget (libjpeg asks for a backing store when the whole-image
// buffers will not fit in max_memory_to_use, and this build has none).
static void on_error_exit(j_common_ptr cinfo) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    keep_message(cinfo, errors);
    switch (errors->base.msg_code) {
    case JERR_BAD_PRECISION:
        set_fact(errors, PL_JPEG_FACT_SAMPLE_PRECISION);
        if (errors->result != NULL) errors->result->sample_bits = errors->base.msg_parm.i[0];
        stop(errors, PL_JPEG_UNSUPPORTED);
        break;
    case JERR_SOF_UNSUPPORTED:
        set_fact(errors, PL_JPEG_FACT_FRAME_MARKER);
        if (errors->result != NULL) errors->result->frame_marker = errors->base.msg_parm.i[0];
        stop(errors, PL_JPEG_UNSUPPORTED);
        break;
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY:
        if (errors->limits == NULL) stop(errors, PL_JPEG_NO_MEMORY);  // encoding: no budget set
        set_fact(errors, PL_JPEG_FACT_MEMORY);
        stop(errors, PL_JPEG_OVER_BUDGET);
        break;
    default:
        set_fact(errors, PL_JPEG_FACT_LIBJPEG);
        stop(errors, errors->status == PL_JPEG_OK ? PL_JPEG_CORRUPT : errors->status);
    }
}

// Level -1 is a warning (recoverable corruption); positive levels are trace output. The
// first warning is kept, unless a later one says data is missing: running out of data,
// before the end marker or at one, fails the decode however lenient it is.
static void on_message(j_common_ptr cinfo, int level) {
    ErrorManager *errors = (ErrorManager *)cinfo->err;
    if (level >= 0) return;
    int code = errors->base.msg_code;
    int missing = code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER;
    if (errors->base.num_warnings == 0 || (missing && errors->status == PL_JPEG_OK)) {
        keep_message(cinfo, errors);
        set_fact(errors, code == JWRN_HIT_MARKER ? PL_JPEG_FACT_SCAN_CUT_SHORT : PL_JPEG_FACT_LIBJPEG);
    }
    if (missing && errors->status == PL_JPEG_OK) errors->status = code == JWRN_JPEG_EOF ? PL_JPEG_TRUNCATED : PL_JPEG_MISSING_DATA;
    errors->base.num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_error_manager(ErrorManager *errors, char *message, size_t message_size, PLJPEGResult *result,
                                  const PLJPEGLimits *limits) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = on_error_exit;
    errors->base.emit_message = on_message;
    errors->base.output_message = on_output_message;
    errors->message = message;
    errors->message_size = message_size;
    errors->result = result;
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
        set_fact(errors, PL_JPEG_FACT_SCAN_WORK);
        errors->result->scans = decoder->input_scan_number;
        stop(errors, PL_JPEG_OVER_BUDGET);
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
            set_fact(errors, PL_JPEG_FACT_UNCODED_COEFFICIENTS);
            errors->result->component = component + 1;
            errors->result->uncoded_coefficients = missing;
            errors->result->dc_uncoded = decoder->coef_bits[component][0] < 0;
            stop(errors, PL_JPEG_MISSING_DATA);
        }
    }
}

// The standard luminance table (ITU T.81 Annex K), in natural order: what IJG libjpeg, and
// Pillow, ImageMagick and most software through it, scale for a quality setting.
static const unsigned int standard_luminance[DCTSIZE2] = {
    16, 11, 10, 16, 24, 40, 51, 61,     12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56,     14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77,   24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

// The quality whose table jpeg_set_quality would write (baseline: entries 1 to 255) is nearest
// the file's, by the sum of absolute differences. Exact for files libjpeg wrote; for a camera's
// or an editor's own tables, the IJG quality that quantises about as coarsely.
static int estimate_quality(j_decompress_ptr decoder) {
    if (decoder->num_components < 1) return 0;
    int table = decoder->comp_info[0].quant_tbl_no;
    if (table < 0 || table >= NUM_QUANT_TBLS || decoder->quant_tbl_ptrs[table] == NULL) return 0;
    const UINT16 *entries = decoder->quant_tbl_ptrs[table]->quantval;
    int best = 0;
    unsigned long best_distance = 0;
    for (int quality = 1; quality <= 100; quality++) {
        long scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
        unsigned long distance = 0;
        for (int k = 0; k < DCTSIZE2; k++) {
            long scaled = ((long)standard_luminance[k] * scale + 50) / 100;
            scaled = scaled < 1 ? 1 : scaled > 255 ? 255 : scaled;
            distance += (unsigned long)labs(scaled - (long)entries[k]);
        }
        if (best == 0 || distance < best_distance) {
            best = quality;
            best_distance = distance;
        }
    }
    return best;
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

int pl_jpeg_decode(const uint8_t *data, size_t size, const PLJPEGLimits *limits, int strict,
                   const PLJPEGRowSink *sink, PLJPEGResult *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct decoder;
    ErrorManager errors;
    struct jpeg_progress_mgr progress = {.progress_monitor = count_scan_work};
    install_error_manager(&errors, result->libjpeg_message, sizeof result->libjpeg_message, result, limits);
    decoder.err = &errors.base;
    // Written after setjmp and read after a longjmp back to it, so it must be volatile.
    uint8_t *volatile rows = NULL;
    if (setjmp(errors.jump)) {
        free(rows);
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
    result->estimated_quality = estimate_quality(&decoder);
    if ((uint64_t)decoder.image_width * decoder.image_height > limits->max_pixels) stop(&errors, PL_JPEG_TOO_LARGE);

    // libjpeg converts YCCK to CMYK but not CMYK to RGB: those rows come out as CMYK.
    int cmyk = decoder.jpeg_color_space == JCS_CMYK || decoder.jpeg_color_space == JCS_YCCK;
    int components = cmyk ? 4 : 3;
    decoder.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    decoder.scale_num = sink->scale(sink->context, decoder.image_width, decoder.image_height);
    decoder.scale_denom = 8;
    // A multi-scan file is read whole here, before the first row comes out.
    jpeg_start_decompress(&decoder);
    require_every_coefficient(&decoder, &errors);

    uint32_t width = decoder.output_width, height = decoder.output_height;
    size_t exif_size;
    const uint8_t *exif = find_exif(&decoder, &exif_size);
    if (sink->begin(sink->context, width, height, components, decoder.saw_Adobe_marker, exif, exif_size) != 0)
        stop(&errors, PL_JPEG_CANCELLED);
    // Rows go to the sink a batch at a time, the batch filled before its first row is handed on:
    // read straight after libjpeg stored them, the resize's unaligned loads wait on those stores
    // (measured here, its horizontal pass took twice as long).
    enum { BATCH = 16 };
    size_t row_bytes = (size_t)width * components;
    rows = malloc(row_bytes * BATCH);
    if (rows == NULL) stop(&errors, PL_JPEG_NO_MEMORY);
    while (decoder.output_scanline < height) {
        uint32_t first = decoder.output_scanline;
        JSAMPROW targets[BATCH];
        JDIMENSION batch = height - first < BATCH ? height - first : BATCH;
        for (JDIMENSION i = 0; i < batch; i++) targets[i] = rows + i * row_bytes;
        JDIMENSION got = 0, more;
        // The memory source never suspends, so no row only when the decoder has none left.
        while (got < batch && (more = jpeg_read_scanlines(&decoder, targets + got, batch - got)) > 0) got += more;
        if (got == 0) break;
        for (JDIMENSION i = 0; i < got; i++) sink->row(sink->context, rows + i * row_bytes, first + i);
    }
    jpeg_finish_decompress(&decoder);
    if (errors.status != PL_JPEG_OK || (strict && errors.base.num_warnings > 0))
        stop(&errors, errors.status != PL_JPEG_OK ? errors.status : PL_JPEG_CORRUPT);
    free(rows);
    jpeg_destroy_decompress(&decoder);
    return PL_JPEG_OK;
}

int pl_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int quality,
                   int progressive, const uint8_t *exif, size_t exif_size,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct encoder;
    ErrorManager errors;
    install_error_manager(&errors, message, message_size, NULL, NULL);
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
