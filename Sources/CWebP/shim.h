// libwebp's decoder (advanced API: WebPDecoderConfig with scaling). No longjmp anywhere.
#ifndef POSTFEED_CWEBP_SHIM_H
#define POSTFEED_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>

/// WebPInitDecoderConfig is a static inline over a versioned call; spelled out here so
/// Swift sees a plain function.
static inline int pf_webp_init_decoder_config(WebPDecoderConfig *config) {
    return WebPInitDecoderConfig(config);
}
#endif
