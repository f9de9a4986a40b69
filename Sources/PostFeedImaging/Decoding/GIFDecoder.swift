internal import CGIF

/// The first frame of a GIF through giflib, read record by record (never `DGifSlurp`,
/// which would decode every frame). The logical screen and the frame's descriptor are both
/// checked against the limit before any pixel buffer is allocated; the frame is drawn at
/// its offset on a transparent canvas of the screen's size, or, for a preview, of the
/// size that fits the box (``FrameCanvas``: the screen itself is never allocated, so a
/// few bytes declaring a 10000×10000 screen cost a preview's memory, not 400 MB).
struct GIFDecoder {
    let limit: Int

    func headerSize(_ bytes: [UInt8]) throws(ImageDecodingError) -> PixelSize {
        try withFile(bytes) { gif throws(ImageDecodingError) in try screenSize(gif) }
    }

    /// The first frame on its screen at full size, or scaled down to fit in `box`.
    func decode(_ bytes: [UInt8], fittingIn box: PixelSize? = nil) throws(ImageDecodingError) -> RGBAImage {
        try withFile(bytes) { gif throws(ImageDecodingError) in try firstFrame(gif, fittingIn: box) }
    }

    private func screenSize(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> PixelSize {
        let size = PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
        try checkDimensions(size, format: .gif, limit: limit, what: "logical screen")
        return size
    }

    private func firstFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, fittingIn box: PixelSize?
    ) throws(ImageDecodingError) -> RGBAImage {
        let screen = try screenSize(gif)
        var transparentIndex: Int? = nil
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw Self.error(gif) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw Self.error(gif) }
                // Graphic control extension: [length 4, flags, delay lo, delay hi, index].
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4, block[1] & 0x01 != 0 {
                    transparentIndex = Int(block[4])
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw Self.error(gif) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw Self.error(gif) }
                return try readFrame(gif, screen: screen, target: box.map { screen.fitting(in: $0) } ?? screen,
                                     transparentIndex: transparentIndex)
            case TERMINATE_RECORD_TYPE:
                throw .corrupt(.gif, "no image in the file")
            default:
                throw .corrupt(.gif, "unexpected record type \(record.rawValue)")
            }
        }
    }

    private func readFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, screen: PixelSize, target: PixelSize, transparentIndex: Int?
    ) throws(ImageDecodingError) -> RGBAImage {
        let descriptor = gif.pointee.Image
        let frame = PixelSize(width: Int(descriptor.Width), height: Int(descriptor.Height))
        try checkDimensions(frame, format: .gif, limit: limit, what: "frame")
        guard let colorMap = descriptor.ColorMap ?? gif.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
            throw .corrupt(.gif, "no colour map")
        }
        let colorCount = Int(colorMap.pointee.ColorCount)
        let canvas = FrameCanvas(canvas: screen, left: Int(descriptor.Left), top: Int(descriptor.Top),
                                 frame: frame, target: target)
        // The frame's columns on the screen: its first ones (it starts on the screen or
        // wholly past its right edge).
        let visible = 0..<canvas.visibleColumns.count
        var line = [GifPixelType](repeating: 0, count: frame.width)
        func readLine() throws(ImageDecodingError) {
            let ok = line.withUnsafeMutableBufferPointer { buffer in
                DGifGetLine(gif, buffer.baseAddress, Int32(frame.width))
            }
            guard ok == GIF_OK else { throw Self.error(gif) }
        }
        /// Frame row `indices` (the visible columns of a row of palette indices) as RGBA.
        func draw(_ indices: ArraySlice<GifPixelType>, into pixels: UnsafeMutableBufferPointer<UInt8>) {
            var offset = 0
            for index in indices {
                let index = Int(index)
                if index == transparentIndex || index >= colorCount {
                    pixels[offset] = 0; pixels[offset + 1] = 0; pixels[offset + 2] = 0; pixels[offset + 3] = 0
                } else {
                    let color = colors[index]
                    pixels[offset] = color.Red; pixels[offset + 1] = color.Green
                    pixels[offset + 2] = color.Blue; pixels[offset + 3] = 255
                }
                offset += 4
            }
        }
        guard descriptor.Interlace else {
            // Rows arrive top to bottom: each is drawn as it is read, none kept.
            return try canvas.render { (_, pixels) throws(ImageDecodingError) in
                try readLine()
                draw(line[visible], into: pixels)
            }
        }
        // Interlaced rows arrive in four passes (rows 0, 4, 2, 1 mod 8, 8, 4, 2): the visible
        // columns of the rows on the screen are kept, as they are read, to draw in order.
        let rows = canvas.visibleRows
        var kept: [GifPixelType] = []
        var slot = [Int](repeating: 0, count: rows)
        var passRows = 0
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            for row in stride(from: start, to: frame.height, by: step) {
                try readLine()
                guard row < rows else { continue }
                slot[row] = passRows
                passRows += 1
                kept.append(contentsOf: line[visible])
            }
        }
        return canvas.render { y, pixels in
            let start = slot[y] * visible.count
            draw(kept[start..<start + visible.count], into: pixels)
        }
    }

    /// Opens the bytes with giflib reading from memory, runs `body`, closes.
    private func withFile<T>(
        _ bytes: [UInt8], _ body: (UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        let reader = MemoryReader(bytes)
        return try withExtendedLifetime(reader) { () throws(ImageDecodingError) -> T in
            var openError: Int32 = 0
            guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), { file, buffer, count in
                guard let file, let buffer, let context = file.pointee.UserData else { return 0 }
                return Unmanaged<MemoryReader>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: Int(count))
            }, &openError) else {
                throw .corrupt(.gif, Self.describe(openError))
            }
            defer {
                var closeError: Int32 = 0
                _ = DGifCloseFile(gif, &closeError)
            }
            return try body(gif)
        }
    }

    private static func error(_ gif: UnsafeMutablePointer<GifFileType>) -> ImageDecodingError {
        .corrupt(.gif, describe(gif.pointee.Error))
    }

    private static func describe(_ code: Int32) -> String {
        if let text = GifErrorString(code) { return String(cString: text) }
        return "giflib error \(code)"
    }
}

/// The bytes giflib reads through its input callback.
private final class MemoryReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<GifByteType>, count: Int) -> Int32 {
        let available = min(max(count, 0), bytes.count - offset)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, available > 0 {
                buffer.update(from: base + offset, count: available)
            }
        }
        offset += available
        return Int32(available)
    }
}
