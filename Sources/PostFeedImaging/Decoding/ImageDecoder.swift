import FoundationEssentials

/// Decodes JPEG, PNG, WebP and GIF (first frame) bytes into RGBA8 pixels.
///
/// Every decoder reads the header first and refuses an image whose declared pixel count
/// exceeds `maximumPixelCount` before allocating anything of that size. Truncated and
/// corrupt data throw an `ImageDecodingError` with a one-line reason; nothing traps, and
/// no C library longjmps across a Swift frame (libpng's simplified API and TurboJPEG
/// catch their own errors in C; libwebp and giflib return codes).
public struct ImageDecoder: Sendable {
    /// 100 megapixels: 400 MB of RGBA at most, far above any post image.
    public static let defaultMaximumPixelCount = 100_000_000

    /// The largest width × height (as declared by the header) the decoder accepts.
    public var maximumPixelCount: Int

    /// From this many pixels on, a preview of an 8-bit RGB or RGBA PNG is inflated on a
    /// second thread while this one unfilters and downscales (the same pixels; below it
    /// the thread costs more than it saves). The fuzz targets lower it to 0.
    public var twoThreadPNGPixelCount = 250_000

    public init(maximumPixelCount: Int = ImageDecoder.defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Decodes `data` and scales it down to fit in `box` (keeping the aspect ratio; never
    /// upscaled). JPEG and WebP are decoded close to the target size by the library itself
    /// (DCT scaling, libwebp's scaler), then area-averaged to fit exactly (JPEG as opaque
    /// RGB); PNG is streamed row by row into the area average (no full-size pixels) when
    /// it can be; a GIF's first frame is drawn straight onto a canvas of the fitted size.
    public func decode(_ data: Data, fittingIn box: PixelSize) throws(ImageDecodingError) -> RGBAImage {
        guard let format = ImageFormat(sniffing: data) else {
            throw .unrecognizedFormat(byteCount: data.count)
        }
        return try decode(data, as: format, fittingIn: box)
    }

    /// ``decode(_:fittingIn:)`` once the format is known.
    private func decode(_ data: Data, as format: ImageFormat, fittingIn box: PixelSize) throws(ImageDecodingError) -> RGBAImage {
        let limit = maximumPixelCount
        switch format {
        case .png:
            let twoThreadsFrom = twoThreadPNGPixelCount
            return try withBytes(of: data) { bytes throws(ImageDecodingError) in
                try PNGDecoder(limit: limit, twoThreadsFrom: twoThreadsFrom).decode(bytes, fittingIn: box)
            }
        case .jpeg:
            return try withBytes(of: data) { bytes throws(ImageDecodingError) in
                try JPEGDecoder(limit: limit).decode(bytes, fittingIn: box)
            }
        case .gif:
            // The first frame drawn on a canvas of the preview's size, never the screen's.
            return try GIFDecoder(limit: limit).decode(Array(data), fittingIn: box)
        case .webp:
            break
        }
        let decoded = try decode(data, as: format, atLeast: box)
        return AreaDownscaler.downscale(decoded, fittingIn: box)
    }

    /// The pixels to hand a renderer that scales on its own (``TerminalImageRenderer``:
    /// libchafa resamples to its canvas on its worker threads): JPEG and WebP as their
    /// libraries decode them at the smallest size that covers `box`'s fit (TurboJPEG's DCT
    /// factors, M/8: under twice the fit each way, except where even 1/8 is larger than the
    /// fit, e.g. a 10000×1000 panorama in a 400×400 box gives 1250×125; libwebp: exactly the
    /// fit), without an area average of our own; PNG and GIF as ``decode(_:fittingIn:)``.
    /// So memory is at most the larger of about 4× the fit and an eighth of each side of
    /// the original, never the original's whole pixels. The result's aspect ratio is the
    /// original's (within a pixel), which is what the renderer sizes its cells by.
    public func decode(_ data: Data, toRender box: PixelSize) throws(ImageDecodingError) -> RGBAImage {
        guard let format = ImageFormat(sniffing: data) else {
            throw .unrecognizedFormat(byteCount: data.count)
        }
        switch format {
        case .jpeg, .webp: return try decode(data, as: format, atLeast: box)
        case .png, .gif: return try decode(data, as: format, fittingIn: box)
        }
    }

    /// The pixels to hand `renderer` for a preview in `cells`: for libchafa's protocols,
    /// which resample to their canvas, ``decode(_:toRender:)``; for kitty, whose pixels are
    /// sent as they are, the exact fit of ``decode(_:fittingIn:)``. Both in the renderer's
    /// ``TerminalImageRenderer/pixelBox(forCells:)``.
    public func decode(
        _ data: Data, for renderer: TerminalImageRenderer, fittingIn cells: PixelSize
    ) throws(ImageDecodingError) -> RGBAImage {
        let box = renderer.pixelBox(forCells: cells)
        return renderer.usesChafa ? try decode(data, toRender: box) : try decode(data, fittingIn: box)
    }

    /// Decodes `data` at full size, or, when `minimum` is given, at the smallest size the
    /// library can produce cheaply that still covers the box `minimum` fits (JPEG: the
    /// smallest DCT scaling factor; WebP: exactly the fitted size). PNG and GIF are
    /// always decoded at full size.
    public func decode(_ data: Data, atLeast minimum: PixelSize? = nil) throws(ImageDecodingError) -> RGBAImage {
        guard let format = ImageFormat(sniffing: data) else {
            throw .unrecognizedFormat(byteCount: data.count)
        }
        return try decode(data, as: format, atLeast: minimum)
    }

    /// Decodes `data` as `format`.
    public func decode(_ data: Data, as format: ImageFormat, atLeast minimum: PixelSize? = nil) throws(ImageDecodingError) -> RGBAImage {
        let limit = maximumPixelCount
        return try withBytes(of: data) { bytes throws(ImageDecodingError) in
            switch format {
            case .jpeg: try JPEGDecoder(limit: limit).decode(bytes, atLeast: minimum)
            case .png: try PNGDecoder(limit: limit).decode(bytes)
            case .webp: try WebPDecoder(limit: limit).decode(bytes, atLeast: minimum)
            // giflib's reader keeps its own copy; the others decode the bytes where they are.
            case .gif: try GIFDecoder(limit: limit).decode(Array(bytes))
            }
        }
    }

    /// The dimensions the header declares, without decoding pixels (and with the same
    /// checks on them as `decode`).
    public func size(of data: Data) throws(ImageDecodingError) -> PixelSize {
        guard let format = ImageFormat(sniffing: data) else {
            throw .unrecognizedFormat(byteCount: data.count)
        }
        let limit = maximumPixelCount
        return try withBytes(of: data) { bytes throws(ImageDecodingError) in
            switch format {
            case .jpeg: try JPEGDecoder(limit: limit).headerSize(bytes)
            case .png: try PNGDecoder(limit: limit).headerSize(bytes)
            case .webp: try WebPDecoder(limit: limit).headerSize(bytes)
            case .gif: try GIFDecoder(limit: limit).headerSize(Array(bytes))
            }
        }
    }
}

/// `body` over `data`'s bytes where they are (no copy), with its typed error.
func withBytes<T>(
    of data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> T
) throws(ImageDecodingError) -> T {
    let result = data.withUnsafeBytes { raw in
        Result { () throws(ImageDecodingError) -> T in try body(raw.bindMemory(to: UInt8.self)) }
    }
    return try result.get()
}

extension UnsafeBufferPointer {
    /// The buffer itself: lets the decoders read borrowed bytes the way they read arrays.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(self)
    }
}

/// The check every decoder makes on header dimensions before allocating.
func checkDimensions(_ size: PixelSize, format: ImageFormat, limit: Int, what: String = "image") throws(ImageDecodingError) {
    guard size.width > 0, size.height > 0 else { throw .invalidDimensions(format, size: size) }
    let (count, overflow) = size.width.multipliedReportingOverflow(by: size.height)
    if overflow || count > limit { throw .tooLarge(format, size: size, limit: limit, what: what) }
}
