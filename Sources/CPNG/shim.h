// libpng through its simplified `png_image` API, which does libpng's setjmp/longjmp error
// handling inside C: a failed call returns 0 and leaves the reason in `image.message`.
// No longjmp ever crosses a Swift frame.
//
// Also a row reader (`pf_png_reader_*`) for the common PNG a preview needs only scaled
// down: each call that may fail sets its own setjmp, so libpng's longjmp lands in the C
// frame that called it and the call returns 0 with the reason in `message`; Swift code
// only ever runs between calls, never under a libpng frame.
#ifndef POSTFEED_CPNG_SHIM_H
#define POSTFEED_CPNG_SHIM_H
#include <setjmp.h>
#include <string.h>
#include <png.h>
#include "rows.h"

/// A zeroed `png_image` of the current version, as the simplified API requires.
static inline png_image pf_png_image_new(void) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    return image;
}

/// The RGBA8 (non-linear sRGB, straight alpha) format for `png_image.format`.
static inline png_uint_32 pf_png_format_rgba(void) { return PNG_FORMAT_RGBA; }

/// True when the read failed (as opposed to a warning).
static inline int pf_png_image_failed(const png_image *image) {
    return PNG_IMAGE_FAILED(*image);
}

/// A PNG read row by row from memory, as 8-bit RGB (3 channels) or RGBA (4).
typedef struct {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t offset;
    png_uint_32 width;
    png_uint_32 height;
    /// 3 or 4 after `pf_png_reader_open` returned 1 with `streamable` set.
    int channels;
    /// 1 when the rows come out exactly as the simplified API would give them: 8 bits
    /// or fewer per sample, not interlaced, no gamma conversion to sRGB needed. When 0
    /// the caller reads the image with the simplified API instead.
    int streamable;
    /// 1 when the rows need no transformation at all (8-bit RGB without tRNS, or 8-bit
    /// RGBA): `pf_png_rows` can read them from `idat_offset`, the first IDAT chunk.
    int direct;
    size_t idat_offset;
    /// The longest IDAT chunk libpng accepts for this image (png_check_chunk_length).
    size_t idat_limit;
    /// Interlace passes to read (``pf_png_reader_open_rgba``).
    int passes;
    char message[200];
} pf_png_reader;

static void pf_png_reader_error(png_structp png, png_const_charp text) {
    pf_png_reader *reader = (pf_png_reader *)png_get_error_ptr(png);
    if (reader != NULL) {
        strncpy(reader->message, text != NULL ? text : "unknown libpng error", sizeof reader->message - 1);
        reader->message[sizeof reader->message - 1] = 0;
    }
    png_longjmp(png, 1);
}

static void pf_png_reader_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text;
}

static void pf_png_reader_read(png_structp png, png_bytep out, size_t length) {
    pf_png_reader *reader = (pf_png_reader *)png_get_io_ptr(png);
    if (reader->size - reader->offset < length) png_error(png, "truncated PNG data");
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

/// libpng's default user limits (`PNG_USER_WIDTH_MAX`, `PNG_USER_HEIGHT_MAX`: 1,000,000
/// on Debian): the simplified API, which cannot raise them, reads PNGs within these.
static inline png_uint_32 pf_png_default_width_max(void) {
#ifdef PNG_USER_WIDTH_MAX
    return PNG_USER_WIDTH_MAX;
#else
    return PNG_UINT_31_MAX;
#endif
}

static inline png_uint_32 pf_png_default_height_max(void) {
#ifdef PNG_USER_HEIGHT_MAX
    return PNG_USER_HEIGHT_MAX;
#else
    return PNG_UINT_31_MAX;
#endif
}

/// Creates the reader's libpng structures. Returns 0 with `message` set when it cannot.
static int pf_png_reader_create(pf_png_reader *reader, const void *data, size_t size) {
    memset(reader, 0, sizeof *reader);
    reader->data = (const unsigned char *)data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, pf_png_reader_error, pf_png_reader_warning);
    if (reader->png == NULL) {
        strcpy(reader->message, "libpng could not create a reader");
        return 0;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        strcpy(reader->message, "libpng could not create a reader");
        return 0;
    }
    return 1;
}

/// Reads up to the first IDAT chunk, under the caller's setjmp. libpng's own limits on
/// width and height (1,000,000 each by default, "Invalid IHDR data" past them) are lifted
/// to the format's: a 2,000,000×10 PNG is 20 megapixels. What refuses a decompression
/// bomb is PostFeed's pixel-count limit, `max_pixels`, checked here from the IHDR before
/// libpng allocates anything the size of a row (and by the Swift caller before this).
static void pf_png_reader_read_header(pf_png_reader *reader, size_t max_pixels) {
    png_set_read_fn(reader->png, reader, pf_png_reader_read);
#ifdef PNG_SET_USER_LIMITS_SUPPORTED
    png_set_user_limits(reader->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
#endif
    png_read_info(reader->png, reader->info);
    png_uint_32 width = png_get_image_width(reader->png, reader->info);
    png_uint_32 height = png_get_image_height(reader->png, reader->info);
    if (width == 0 || height == 0 || (size_t)width > max_pixels / (size_t)height) {
        png_error(reader->png, "image has more pixels than allowed");
    }
}

/// Reads the header of the PNG in `data` (kept, not copied: it must outlive the reader)
/// and sets up the transformations to 8-bit RGB or RGBA rows. Returns 0 with `message`
/// set on failure (the reader is then already closed), also when the image has more than
/// `max_pixels` pixels.
static inline int pf_png_reader_open(pf_png_reader *reader, const void *data, size_t size, size_t max_pixels) {
    if (!pf_png_reader_create(reader, data, size)) return 0;
    if (setjmp(png_jmpbuf(reader->png))) {
        png_destroy_read_struct(&reader->png, &reader->info, NULL);
        return 0;
    }
#if defined(PNG_IGNORE_ADLER32) && defined(PNG_SET_OPTION_SUPPORTED)
    // zlib's Adler-32 of the inflated rows is ~3 % of a preview's time; every IDAT chunk's
    // CRC-32 still guards the same data.
    png_set_option(reader->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    pf_png_reader_read_header(reader, max_pixels);
    // png_read_info stops after the first IDAT chunk's length and type.
    size_t after_header = reader->offset;
    reader->width = png_get_image_width(reader->png, reader->info);
    reader->height = png_get_image_height(reader->png, reader->info);
    int depth = png_get_bit_depth(reader->png, reader->info);
    int type = png_get_color_type(reader->png, reader->info);
    int interlaced = png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE;
    // The simplified API converts to sRGB when the file's gamma is not close to it
    // (libpng's threshold is 5 %); 0.45455 is sRGB's own.
    int gamma_ok = 1;
    if (png_get_valid(reader->png, reader->info, PNG_INFO_gAMA) && !png_get_valid(reader->png, reader->info, PNG_INFO_sRGB)) {
        png_fixed_point gamma = 0;
        png_get_gAMA_fixed(reader->png, reader->info, &gamma);
        gamma_ok = gamma >= 44000 && gamma <= 47000;
    }
    reader->streamable = depth <= 8 && !interlaced && gamma_ok;
    if (!reader->streamable) return 1;
    if (depth == 8 && after_header >= 8 && memcmp(reader->data + after_header - 4, "IDAT", 4) == 0 &&
        (type == PNG_COLOR_TYPE_RGB_ALPHA || (type == PNG_COLOR_TYPE_RGB && !png_get_valid(reader->png, reader->info, PNG_INFO_tRNS)))) {
        reader->direct = 1;
        reader->idat_offset = after_header - 8;
        // libpng's limit: the larger of its chunk allocation limit and what the rows could
        // take compressed at worst (png_check_chunk_length).
        size_t limit = png_get_chunk_malloc_max(reader->png);
        if (limit == 0 || limit > PNG_UINT_31_MAX) limit = PNG_UINT_31_MAX;
        size_t row_factor = (size_t)reader->width * (type == PNG_COLOR_TYPE_RGB ? 3 : 4) + 1;
        size_t idat_limit = PNG_UINT_31_MAX;
        if (reader->height <= PNG_UINT_32_MAX / row_factor) idat_limit = (size_t)reader->height * row_factor;
        if (row_factor > 32566) row_factor = 32566;
        idat_limit += 6 + 5 * (idat_limit / row_factor + 1);
        if (idat_limit > PNG_UINT_31_MAX) idat_limit = PNG_UINT_31_MAX;
        reader->idat_limit = limit < idat_limit ? idat_limit : limit;
    }
    png_set_expand(reader->png);  // palette to RGB, gray to 8 bits, tRNS to alpha
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(reader->png);
    png_read_update_info(reader->png, reader->info);
    reader->channels = png_get_channels(reader->png, reader->info);
    if ((reader->channels != 3 && reader->channels != 4) || png_get_bit_depth(reader->png, reader->info) != 8) {
        reader->streamable = 0;
    }
    return 1;
}

/// Reads the header of the PNG in `data` and sets up the transformations the simplified
/// API's `PNG_FORMAT_RGBA` makes (8-bit sRGB, straight alpha; 16-bit samples without a
/// gAMA or sRGB chunk taken as linear; interlacing handled), for PNGs wider or taller
/// than the simplified API accepts (``pf_png_default_width_max``). Returns 0 with
/// `message` set on failure (the reader is then already closed), also when the image has
/// more than `max_pixels` pixels. Then ``pf_png_reader_read_image``.
static inline int pf_png_reader_open_rgba(pf_png_reader *reader, const void *data, size_t size, size_t max_pixels) {
    if (!pf_png_reader_create(reader, data, size)) return 0;
    if (setjmp(png_jmpbuf(reader->png))) {
        png_destroy_read_struct(&reader->png, &reader->info, NULL);
        return 0;
    }
    pf_png_reader_read_header(reader, max_pixels);
    reader->width = png_get_image_width(reader->png, reader->info);
    reader->height = png_get_image_height(reader->png, reader->info);
    int depth = png_get_bit_depth(reader->png, reader->info);
    int type = png_get_color_type(reader->png, reader->info);
    // As png_image_read_direct: the file's default gamma first (linear for 16 bits), the
    // output's (sRGB) last.
    png_set_alpha_mode_fixed(reader->png, PNG_ALPHA_PNG, depth == 16 ? PNG_GAMMA_LINEAR : PNG_DEFAULT_sRGB);
    png_set_expand(reader->png);
    if (depth == 16) png_set_scale_16(reader->png);
    if ((type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(reader->png);
    if ((type & PNG_COLOR_MASK_ALPHA) == 0 && !png_get_valid(reader->png, reader->info, PNG_INFO_tRNS)) {
        png_set_add_alpha(reader->png, 0xffff, PNG_FILLER_AFTER);
    }
    png_set_alpha_mode_fixed(reader->png, PNG_ALPHA_PNG, PNG_GAMMA_sRGB);
    reader->passes = png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    reader->channels = png_get_channels(reader->png, reader->info);
    if (reader->channels != 4 || png_get_bit_depth(reader->png, reader->info) != 8) {
        png_error(reader->png, "libpng gave no 8-bit RGBA rows");
    }
    return 1;
}

/// Reads the whole image opened by ``pf_png_reader_open_rgba`` into `pixels` (`height`
/// rows of `stride` bytes, at least `width * 4`), every interlace pass. Returns 0 with
/// `message` set on failure; the reader stays open (close it).
static inline int pf_png_reader_read_image(pf_png_reader *reader, unsigned char *pixels, size_t stride) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    for (int pass = 0; pass < reader->passes; pass++) {
        for (png_uint_32 y = 0; y < reader->height; y++) png_read_row(reader->png, pixels + (size_t)y * stride, NULL);
    }
    return 1;
}

/// Reads the next row into `row` (`width * channels` bytes). Returns 0 with `message` set
/// on failure; the reader stays open (close it).
static inline int pf_png_reader_read_row(pf_png_reader *reader, unsigned char *row) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    png_read_row(reader->png, row, NULL);
    return 1;
}

static inline void pf_png_reader_close(pf_png_reader *reader) {
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, &reader->info, NULL);
}
#endif
