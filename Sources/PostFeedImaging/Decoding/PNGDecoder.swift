internal import CPNG

/// PNG through libpng's simplified `png_image` API (its setjmp/longjmp stays in C).
/// Always decoded at full size: PNG has no cheap reduced decode.
struct PNGDecoder {
    let limit: Int

    func headerSize(_ bytes: [UInt8]) throws(ImageDecodingError) -> PixelSize {
        var image = pf_png_image_new()
        let size = try begin(&image, bytes)
        png_image_free(&image)
        return size
    }

    func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBAImage {
        var image = pf_png_image_new()
        // begin_read parses up to the first IDAT: the IHDR dimensions are checked below
        // before the pixel buffer exists.
        let size = try begin(&image, bytes)
        image.format = pf_png_format_rgba()
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let ok = pixels.withUnsafeMutableBytes { destination in
            png_image_finish_read(&image, nil, destination.baseAddress, Int32(size.width * 4), nil)
        }
        // On failure the simplified API has already released its memory.
        if ok == 0 || pf_png_image_failed(&image) != 0 {
            let reason = Self.message(of: image)
            png_image_free(&image)
            throw .corrupt(.png, reason)
        }
        png_image_free(&image)
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    private func begin(_ image: inout png_image, _ bytes: [UInt8]) throws(ImageDecodingError) -> PixelSize {
        let ok = bytes.withUnsafeBytes { source in
            png_image_begin_read_from_memory(&image, source.baseAddress, source.count)
        }
        if ok == 0 { throw .corrupt(.png, Self.message(of: image)) }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        do {
            try checkDimensions(size, format: .png, limit: limit)
        } catch {
            png_image_free(&image)
            throw error
        }
        return size
    }

    /// `png_image.message`, a fixed C array, as a String.
    private static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
