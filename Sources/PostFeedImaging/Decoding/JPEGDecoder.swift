internal import CTurboJPEG

/// JPEG through TurboJPEG, decoding straight to a smaller size with the DCT scaling
/// factors (1/8 … 1) when a target is given: a 1600×1200 photo for a 200×150 box is
/// decoded at 200×150, never at full size.
struct JPEGDecoder {
    let limit: Int

    func headerSize(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> PixelSize {
        try withHandle { handle throws(ImageDecodingError) in try readHeader(handle, bytes).size }
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>, atLeast minimum: PixelSize?) throws(ImageDecodingError) -> RGBAImage {
        try withHandle { handle throws(ImageDecodingError) in
            let header = try readHeader(handle, bytes)
            let full = header.size
            let scaled = minimum.map { Self.scaledSize(full, covering: full.fitting(in: $0)) } ?? full
            // CMYK and YCCK decode only to CMYK pixels (TurboJPEG does no CMYK → RGB): four
            // bytes a pixel either way, turned into opaque RGBA in place below.
            let format = header.isCMYK ? TJPF_CMYK : TJPF_RGBA
            var pixels = [UInt8](repeating: 0, count: scaled.width * scaled.height * 4)
            let status = bytes.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { destination in
                    tjDecompress2(handle, source.baseAddress, UInt(source.count), destination.baseAddress,
                                  Int32(scaled.width), Int32(scaled.width * 4), Int32(scaled.height),
                                  Int32(format.rawValue), TJFLAG_STOPONWARNING | TJFLAG_NOREALLOC)
                }
            }
            if status != 0 { throw .corrupt(.jpeg, Self.errorMessage(handle)) }
            if header.isCMYK {
                CMYKConversion(inverted: JPEGMarkers.hasAdobeMarker(bytes)).convertToRGBA(&pixels)
            }
            return RGBAImage(width: scaled.width, height: scaled.height, pixels: pixels)
        }
    }

    /// The image scaled down to fit in `box` (never up): decoded by TurboJPEG at the
    /// smallest scaling factor that covers the fitted size, as opaque RGB (three bytes a
    /// pixel, no alpha to weigh), then area-averaged to fit: the same pixels as
    /// `decode(_:atLeast:)` then ``AreaDownscaler``, with less memory and work.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>, fittingIn box: PixelSize) throws(ImageDecodingError) -> RGBAImage {
        try withHandle { handle throws(ImageDecodingError) in
            let header = try readHeader(handle, bytes)
            let full = header.size
            let scaled = Self.scaledSize(full, covering: full.fitting(in: box))
            let target = scaled.fitting(in: box)
            // CMYK: DCT-scaled to CMYK, converted to RGBA, then area-averaged (no RGB output).
            if header.isCMYK { return AreaDownscaler.downscale(try decode(bytes, atLeast: box), to: target) }
            if target == scaled { return try decode(bytes, atLeast: box) }
            var pixels = [UInt8](repeating: 0, count: scaled.width * scaled.height * 3)
            let status = bytes.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { destination in
                    tjDecompress2(handle, source.baseAddress, UInt(source.count), destination.baseAddress,
                                  Int32(scaled.width), Int32(scaled.width * 3), Int32(scaled.height),
                                  Int32(TJPF_RGB.rawValue), TJFLAG_STOPONWARNING | TJFLAG_NOREALLOC)
                }
            }
            if status != 0 { throw .corrupt(.jpeg, Self.errorMessage(handle)) }
            var scaler = RowDownscaler(from: scaled, to: target, channels: 3)
            pixels.withUnsafeBufferPointer { pixels in
                guard let base = pixels.baseAddress else { return }
                for y in 0..<scaled.height { scaler.add(row: base + y * scaled.width * 3) }
            }
            return scaler.image()
        }
    }

    /// The smallest size TurboJPEG can decode to (one of its scaling factors ≤ 1) that
    /// still covers `target` in both dimensions.
    static func scaledSize(_ full: PixelSize, covering target: PixelSize) -> PixelSize {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return full }
        var best = full
        for index in 0..<Int(count) {
            let factor = factors[index]
            let num = Int(factor.num), denom = Int(factor.denom)
            guard num > 0, denom > 0, num <= denom else { continue }
            // TJSCALED(dimension, factor): rounded up.
            let size = PixelSize(width: (full.width * num + denom - 1) / denom,
                                 height: (full.height * num + denom - 1) / denom)
            if size.width >= target.width, size.height >= target.height, size.pixelCount < best.pixelCount {
                best = size
            }
        }
        return best
    }

    /// What the decoders need from the header: the size, and whether the pixels are CMYK.
    private struct Header {
        let size: PixelSize
        /// CMYK or YCCK (Adobe's transform 2): TurboJPEG decodes these to CMYK only.
        let isCMYK: Bool
    }

    private func readHeader(_ handle: tjhandle, _ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { source in
            tjDecompressHeader3(handle, source.baseAddress, UInt(source.count),
                                &width, &height, &subsampling, &colorspace)
        }
        if status != 0 {
            // libjpeg refuses an empty frame ("Empty JPEG image") or one past 65500 pixels
            // before saying its size: the frame header says it.
            if let frame = JPEGMarkers.frameSize(bytes) { try checkDimensions(frame, format: .jpeg, limit: limit) }
            throw .corrupt(.jpeg, Self.errorMessage(handle))
        }
        let size = PixelSize(width: Int(width), height: Int(height))
        // TurboJPEG answers 0×0 without an error when the data ends before the frame
        // header: that is a truncated file, not an empty image.
        if size.width == 0, size.height == 0, JPEGMarkers.frameSize(bytes) == nil {
            throw .corrupt(.jpeg, "the data ends before the frame header (truncated?)")
        }
        try checkDimensions(size, format: .jpeg, limit: limit)
        return Header(size: size, isCMYK: colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue))
    }

    private func withHandle<T>(_ body: (tjhandle) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        guard let handle = tjInitDecompress() else {
            throw .corrupt(.jpeg, "TurboJPEG could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func errorMessage(_ handle: tjhandle) -> String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: message)
    }
}
