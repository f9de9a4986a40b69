internal import CPNG

/// PNG through libpng. At full size with the simplified `png_image` API (its
/// setjmp/longjmp stays in C). Scaled down for a preview, the common PNG (8 bits or
/// fewer per sample, not interlaced, sRGB) is read row by row into a ``RowDownscaler``:
/// no full-size pixel buffer, so time and memory follow the target, not the original
/// (zlib still inflates every row). Other PNGs (16-bit, interlaced, a gamma to convert)
/// are decoded whole, then downscaled: the same pixels either way. A large 8-bit RGB or
/// RGBA PNG is read on two threads (`pf_png_rows`: zlib inflates on a helper thread while
/// this one unfilters and downscales), again the same rows; when that read fails, libpng's
/// one-thread reader decides (it is lenient with damage after the last row).
///
/// libpng refuses a width or height over 1,000,000 by default (its user limits), and the
/// simplified API cannot raise them; the row reader raises them, and a PNG past them is
/// decoded whole by `pf_png_reader_open_rgba` (the simplified API's transformations, one
/// libpng call at a time). The pixel-count limit is what refuses bombs, from the IHDR.
struct PNGDecoder {
    let limit: Int
    /// From this many pixels on, a PNG libpng would not transform is inflated on a second
    /// thread (``ImageDecoder/twoThreadPNGPixelCount``; tests lower it to read their
    /// small PNGs on two threads).
    var twoThreadsFrom = ImageDecoder().twoThreadPNGPixelCount

    func headerSize(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> PixelSize {
        guard Self.simplifiedAPIReads(bytes) else {
            return try withReader(bytes, open: pf_png_reader_open_rgba) { reader throws(ImageDecodingError) in
                PixelSize(width: Int(reader.pointee.width), height: Int(reader.pointee.height))
            }
        }
        var image = pf_png_image_new()
        let size = try begin(&image, bytes)
        png_image_free(&image)
        return size
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> RGBAImage {
        guard Self.simplifiedAPIReads(bytes) else { return try decodeWithoutSimplifiedAPI(bytes) }
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

    /// The image scaled down to fit in `box` (never up): row by row when the PNG allows
    /// it, else decoded whole and downscaled.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>, fittingIn box: PixelSize) throws(ImageDecodingError) -> RGBAImage {
        try withReader(bytes, open: pf_png_reader_open) { reader throws(ImageDecodingError) in
            try decode(bytes, reader: reader, fittingIn: box)
        }
    }

    private func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, reader: UnsafeMutablePointer<pf_png_reader>, fittingIn box: PixelSize
    ) throws(ImageDecodingError) -> RGBAImage {
        let size = PixelSize(width: Int(reader.pointee.width), height: Int(reader.pointee.height))
        let target = size.fitting(in: box)
        guard reader.pointee.streamable != 0, target != size else {
            return AreaDownscaler.downscale(try decode(bytes), to: target)
        }
        let channels = Int(reader.pointee.channels)
        if reader.pointee.direct != 0, size.pixelCount >= twoThreadsFrom {
            var split = RowDownscaler(from: size, to: target, channels: channels)
            // A refusal is not the last word: libpng's row reader below (whose reader has
            // read no row yet) accepts some damage the two-thread one refuses (damaged
            // compressed data past the last row, which it only warns about), so the same
            // PNG previews, or fails with libpng's reason, whatever its size.
            if let image = try? decodeOnTwoThreads(bytes, reader: reader.pointee, into: &split) {
                return image
            }
        }
        var scaler = RowDownscaler(from: size, to: target, channels: channels)
        var row = [UInt8](repeating: 0, count: size.width * channels)
        for _ in 0..<size.height {
            let ok = row.withUnsafeMutableBufferPointer { row in
                pf_png_reader_read_row(reader, row.baseAddress)
            }
            guard ok != 0 else { throw .corrupt(.png, Self.message(of: reader.pointee)) }
            row.withUnsafeBufferPointer { row in
                guard let base = row.baseAddress else { return }
                scaler.add(row: base)
            }
        }
        return scaler.image()
    }

    /// A PNG the simplified API does not read right (wider or taller than its limits, or
    /// 16-bit interlaced), decoded whole with its transformations (`pf_png_reader_open_rgba`).
    private func decodeWithoutSimplifiedAPI(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> RGBAImage {
        try withReader(bytes, open: pf_png_reader_open_rgba) { reader throws(ImageDecodingError) in
            let width = Int(reader.pointee.width), height = Int(reader.pointee.height)
            // Within the pixel limit (checked before opening), so these cannot overflow.
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let ok = pixels.withUnsafeMutableBufferPointer { pixels in
                pf_png_reader_read_image(reader, pixels.baseAddress, width * 4)
            }
            guard ok != 0 else { throw .corrupt(.png, Self.message(of: reader.pointee)) }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Runs `body` with a row reader opened by `open` (``pf_png_reader_open`` or
    /// ``pf_png_reader_open_rgba``) on `bytes`, after the IHDR's dimensions passed the
    /// pixel limit; closes it after.
    private func withReader<T>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        open: (UnsafeMutablePointer<pf_png_reader>?, UnsafeRawPointer?, Int, Int) -> Int32,
        _ body: (UnsafeMutablePointer<pf_png_reader>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        // The bomb check first, from the header, before libpng reads on.
        if let declared = Self.declaredSize(bytes) { try checkDimensions(declared, format: .png, limit: limit) }
        // libpng keeps the reader's address (its I/O and error pointer) between calls:
        // it lives at one fixed address, not in a Swift variable passed as `&`.
        let reader = UnsafeMutablePointer<pf_png_reader>.allocate(capacity: 1)
        reader.initialize(to: pf_png_reader())
        defer { reader.deallocate() }
        guard open(reader, UnsafeRawPointer(bytes.baseAddress), bytes.count, max(0, limit)) != 0 else {
            throw refusal(bytes, Self.message(of: reader.pointee))
        }
        defer { pf_png_reader_close(reader) }
        let size = PixelSize(width: Int(reader.pointee.width), height: Int(reader.pointee.height))
        try checkDimensions(size, format: .png, limit: limit)
        return try body(reader)
    }

    /// Whether libpng's simplified API reads this PNG (right): its width and height are
    /// within libpng's default user limits, which only a `png_struct` of our own can
    /// raise, and it is not a 16-bit interlaced one, whose rows libpng 1.6.39's
    /// simplified API mixes up (a 9×4 gray image came back with rows 0 and 2 wrong).
    static func simplifiedAPIReads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let header = IHDR(bytes) else { return true }
        if header.bitDepth == 16, header.isInterlaced == true { return false }
        return header.size.width <= Int(pf_png_default_width_max()) && header.size.height <= Int(pf_png_default_height_max())
    }

    /// The rows from `pf_png_rows` into `scaler`, or nil when its thread could not start.
    private func decodeOnTwoThreads(
        _ bytes: UnsafeBufferPointer<UInt8>, reader: pf_png_reader, into scaler: inout RowDownscaler
    ) throws(ImageDecodingError) -> RGBAImage? {
        let rows = UnsafeMutablePointer<pf_png_rows>.allocate(capacity: 1)
        rows.initialize(to: pf_png_rows())
        defer { rows.deallocate() }
        guard pf_png_rows_start(rows, bytes.baseAddress, bytes.count, reader.idat_offset, reader.idat_limit,
                                reader.width, reader.height, reader.channels) != 0 else { return nil }
        defer { pf_png_rows_stop(rows) }
        for _ in 0..<Int(reader.height) {
            guard let row = pf_png_rows_next(rows) else {
                throw .corrupt(.png, String(cString: pf_png_rows_message(rows)))
            }
            scaler.add(row: row)
        }
        // The compressed stream must end properly, as libpng checks after the last row.
        guard pf_png_rows_finish(rows) != 0 else {
            throw .corrupt(.png, String(cString: pf_png_rows_message(rows)))
        }
        return scaler.image()
    }

    /// True when `bytes` is a PNG that ``decode(_:fittingIn:)`` reads row by row.
    static func readsRows(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let reader = UnsafeMutablePointer<pf_png_reader>.allocate(capacity: 1)
        reader.initialize(to: pf_png_reader())
        defer { reader.deallocate() }
        guard pf_png_reader_open(reader, bytes.baseAddress, bytes.count, ImageDecoder.defaultMaximumPixelCount) != 0 else {
            return false
        }
        defer { pf_png_reader_close(reader) }
        return reader.pointee.streamable != 0
    }

    /// True when `bytes` is a PNG that ``decode(_:fittingIn:)`` can read on two threads
    /// (when it is large enough): 8-bit RGB without tRNS or 8-bit RGBA, not interlaced.
    static func readsOnTwoThreads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let reader = UnsafeMutablePointer<pf_png_reader>.allocate(capacity: 1)
        reader.initialize(to: pf_png_reader())
        defer { reader.deallocate() }
        guard pf_png_reader_open(reader, bytes.baseAddress, bytes.count, ImageDecoder.defaultMaximumPixelCount) != 0 else {
            return false
        }
        defer { pf_png_reader_close(reader) }
        return reader.pointee.direct != 0
    }

    private func begin(_ image: inout png_image, _ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> PixelSize {
        let ok = png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        if ok == 0 { throw refusal(bytes, Self.message(of: image)) }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        do {
            try checkDimensions(size, format: .png, limit: limit)
        } catch {
            png_image_free(&image)
            throw error
        }
        return size
    }

    /// Why libpng refused the header: the IHDR's own dimensions when they are what it
    /// refused (a zero width or height, or past the limit; libpng says only "Invalid IHDR
    /// data"), else libpng's `message`.
    private func refusal(_ bytes: UnsafeBufferPointer<UInt8>, _ message: String) -> ImageDecodingError {
        if let size = Self.declaredSize(bytes) {
            do {
                try checkDimensions(size, format: .png, limit: limit)
            } catch {
                return error
            }
        }
        return .corrupt(.png, message)
    }

    /// The width and height the IHDR chunk declares (right after the signature), or nil.
    static func declaredSize(_ bytes: UnsafeBufferPointer<UInt8>) -> PixelSize? {
        IHDR(bytes)?.size
    }

    /// What our checks read of the IHDR chunk (right after the signature) before libpng
    /// does: one reader of its bytes for all of them.
    struct IHDR {
        let size: PixelSize
        /// nil when the data ends before the field.
        let bitDepth: UInt8?
        let isInterlaced: Bool?

        /// nil when `bytes` do not start with the signature and an IHDR's length and type,
        /// or end before its width and height.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            let start: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            guard bytes.count >= 24, bytes.prefix(start.count).elementsEqual(start) else { return nil }
            func be32(at offset: Int) -> Int {
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            }
            size = PixelSize(width: be32(at: 16), height: be32(at: 20))
            // Then bit depth, colour type, compression, filter and interlace method.
            bitDepth = bytes.count > 24 ? bytes[24] : nil
            isInterlaced = bytes.count > 28 ? bytes[28] != 0 : nil
        }
    }

    /// `png_image.message`, a fixed C array, as a String.
    private static func message(of image: png_image) -> String {
        var copy = image.message
        return text(of: &copy)
    }

    /// The row reader's message, a fixed C array, as a String.
    private static func message(of reader: pf_png_reader) -> String {
        var copy = reader.message
        return text(of: &copy)
    }

    private static func text<Tuple>(of tuple: inout Tuple) -> String {
        let text = withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
