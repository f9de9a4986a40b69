internal import CWebP

/// WebP through libwebp's advanced API, scaling inside the decoder when a target is given.
/// Animated WebP is not decoded (libwebp's simple decoder refuses it; it needs libwebpdemux).
struct WebPDecoder {
    let limit: Int

    func headerSize(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { source in
            WebPGetInfo(source.baseAddress, source.count, &width, &height)
        }
        if ok == 0 { throw .corrupt(.webp, "unreadable WebP header (\(bytes.count) bytes)") }
        let size = PixelSize(width: Int(width), height: Int(height))
        try checkDimensions(size, format: .webp, limit: limit)
        return size
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>, atLeast minimum: PixelSize?) throws(ImageDecodingError) -> RGBAImage {
        let full = try headerSize(bytes)
        let target = minimum.map { full.fitting(in: $0) } ?? full
        var config = WebPDecoderConfig()
        guard pf_webp_init_decoder_config(&config) != 0 else {
            throw .corrupt(.webp, "libwebp version mismatch")
        }
        if target != full {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(target.width)
            config.options.scaled_height = Int32(target.height)
        }
        config.output.colorspace = MODE_RGBA
        let status = bytes.withUnsafeBufferPointer { source in
            WebPDecode(source.baseAddress, source.count, &config)
        }
        defer { WebPFreeDecBuffer(&config.output) }
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, Self.describe(status)) }
        let width = Int(config.output.width), height = Int(config.output.height)
        let stride = Int(config.output.u.RGBA.stride)
        guard let rgba = config.output.u.RGBA.rgba, width > 0, height > 0, stride >= width * 4 else {
            throw .corrupt(.webp, "libwebp returned no pixels")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { destination in
            guard let base = destination.baseAddress else { return }
            for row in 0..<height {
                (base + row * width * 4).update(from: rgba + row * stride, count: width * 4)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature (animated WebP?)"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "truncated (not enough data)"
        default: "libwebp status \(status.rawValue)"
        }
    }
}
