// libpng through its simplified `png_image` API, which does libpng's setjmp/longjmp error
// handling inside C: a failed call returns 0 and leaves the reason in `image.message`.
// No longjmp ever crosses a Swift frame.
#ifndef POSTFEED_CPNG_SHIM_H
#define POSTFEED_CPNG_SHIM_H
#include <string.h>
#include <png.h>

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
#endif
