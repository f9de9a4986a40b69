internal import CWebP

/// WebP through libwebp's advanced API, scaling inside the decoder when a target is given.
/// An animated WebP is read with libwebpdemux: its first frame, drawn at its offset on a
/// transparent canvas (as a GIF's first frame is), scaled by libwebp when it covers the
/// whole canvas, else through ``FrameCanvas``.
struct WebPDecoder {
    let limit: Int

    func headerSize(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { source in
            WebPGetInfo(source.baseAddress, source.count, &width, &height)
        }
        if ok == 0 {
            // libwebp refuses a canvas of 2^32 pixels or more without saying its size.
            if let canvas = Self.extendedCanvas(bytes) { try checkDimensions(canvas, format: .webp, limit: limit, what: "canvas") }
            throw .corrupt(.webp, "unreadable WebP header (\(bytes.count) bytes)")
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        try checkDimensions(size, format: .webp, limit: limit)
        return size
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>, atLeast minimum: PixelSize?) throws(ImageDecodingError) -> RGBAImage {
        let full = try headerSize(bytes)
        let target = minimum.map { full.fitting(in: $0) } ?? full
        var features = WebPBitstreamFeatures()
        let status = pf_webp_get_features(bytes.baseAddress, bytes.count, &features)
        if status == VP8_STATUS_OK, features.has_animation != 0 {
            return try decodeFirstFrame(bytes, canvas: full, target: target)
        }
        return try decodeStill(bytes, target: target)
    }

    /// The first frame of an animated WebP on its canvas (`canvas`, already checked),
    /// at `target` size.
    private func decodeFirstFrame(
        _ bytes: UnsafeBufferPointer<UInt8>, canvas: PixelSize, target: PixelSize
    ) throws(ImageDecodingError) -> RGBAImage {
        guard let demuxer = pf_webp_demux(bytes.baseAddress, bytes.count) else {
            throw .corrupt(.webp, "unreadable animated WebP (\(bytes.count) bytes)")
        }
        defer { WebPDemuxDelete(demuxer) }
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
            throw .corrupt(.webp, "animated WebP without a frame")
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        let frame = PixelSize(width: Int(iterator.width), height: Int(iterator.height))
        try checkDimensions(frame, format: .webp, limit: limit, what: "frame")
        guard let start = iterator.fragment.bytes, iterator.fragment.size > 0 else {
            throw .corrupt(.webp, "animated WebP frame without data")
        }
        // The frame's own bitstream (ALPH and VP8, or VP8L), a still image to libwebp.
        let fragment = UnsafeBufferPointer(start: start, count: iterator.fragment.size)
        let left = Int(iterator.x_offset), top = Int(iterator.y_offset)
        if left == 0, top == 0, frame == canvas {
            return try decodeStill(fragment, expected: frame, target: target)
        }
        let pixels = try decodeStill(fragment, expected: frame, target: frame)
        let drawing = FrameCanvas(canvas: canvas, left: left, top: top, frame: pixels.size, target: target)
        let columns = drawing.visibleColumns.count * 4
        return pixels.pixels.withUnsafeBufferPointer { source in
            drawing.render { y, row in
                guard let base = source.baseAddress, let destination = row.baseAddress else { return }
                destination.update(from: base + y * pixels.bytesPerRow, count: columns)
            }
        }
    }

    /// A still image (or one frame's bitstream), decoded by libwebp at `target` size.
    /// `expected`, when given, is the size the frame must have (its ANMF header's).
    private func decodeStill(
        _ bytes: UnsafeBufferPointer<UInt8>, expected: PixelSize? = nil, target: PixelSize
    ) throws(ImageDecodingError) -> RGBAImage {
        var infoWidth: Int32 = 0, infoHeight: Int32 = 0
        guard WebPGetInfo(bytes.baseAddress, bytes.count, &infoWidth, &infoHeight) != 0 else {
            throw .corrupt(.webp, "unreadable WebP header (\(bytes.count) bytes)")
        }
        let full = PixelSize(width: Int(infoWidth), height: Int(infoHeight))
        try checkDimensions(full, format: .webp, limit: limit)
        if let expected, expected != full {
            throw .corrupt(.webp, "a \(expected) frame holds a \(full) image")
        }
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

    /// The canvas a VP8X chunk declares (24-bit width − 1 and height − 1), read by hand:
    /// nil when the bytes do not start with one.
    static func extendedCanvas(_ bytes: UnsafeBufferPointer<UInt8>) -> PixelSize? {
        // RIFF, size, WEBP, then "VP8X", its 4-byte length, flags and 3 reserved bytes.
        guard bytes.count >= 30, bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58 else {
            return nil
        }
        func uint24(at offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
        }
        return PixelSize(width: uint24(at: 24) + 1, height: uint24(at: 27) + 1)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "truncated (not enough data)"
        default: "libwebp status \(status.rawValue)"
        }
    }
}
