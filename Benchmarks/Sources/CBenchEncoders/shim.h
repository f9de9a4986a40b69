// The encoders the preview benchmark writes its test images with (libturbojpeg's
// compressor, libpng's simplified write API): the same Debian packages the product decodes
// with (libturbojpeg0-dev, libpng-dev), so nothing else is needed to make the images.
#ifndef POSTFEED_BENCH_ENCODERS_H
#define POSTFEED_BENCH_ENCODERS_H
#include <stddef.h>
#include <string.h>
#include <turbojpeg.h>
#include <png.h>

/// A zeroed `png_image` of the current version, as the simplified API requires.
static inline png_image pf_bench_png_image(png_uint_32 width, png_uint_32 height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGB;
    return image;
}
#endif
