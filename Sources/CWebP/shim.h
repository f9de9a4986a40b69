// libwebp's decoder (advanced API: WebPDecoderConfig with scaling) and its demuxer (the
// frames of an animated WebP). No longjmp anywhere.
#ifndef POSTFEED_CWEBP_SHIM_H
#define POSTFEED_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

/// WebPInitDecoderConfig is a static inline over a versioned call; spelled out here so
/// Swift sees a plain function.
static inline int pf_webp_init_decoder_config(WebPDecoderConfig *config) {
    return WebPInitDecoderConfig(config);
}

/// WebPGetFeatures, likewise a static inline over a versioned call.
static inline VP8StatusCode pf_webp_get_features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return WebPGetFeatures(data, size, features);
}

/// WebPDemux over `size` bytes at `data` (a complete file; NULL when it is not a valid
/// WebP container). The demuxer points into the bytes: they must outlive it.
static inline WebPDemuxer *pf_webp_demux(const uint8_t *data, size_t size) {
    WebPData webp = { data, size };
    return WebPDemux(&webp);
}
#endif
