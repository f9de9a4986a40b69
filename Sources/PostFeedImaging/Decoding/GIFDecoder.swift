internal import CGIF

/// The first frame of a GIF through giflib, read record by record (never `DGifSlurp`,
/// which would decode every frame). The logical screen and the frame's descriptor are both
/// checked against the limit before any pixel buffer is allocated; the frame is drawn at
/// its offset on a transparent canvas of the screen's size.
struct GIFDecoder {
    let limit: Int

    func headerSize(_ bytes: [UInt8]) throws(ImageDecodingError) -> PixelSize {
        try withFile(bytes) { gif throws(ImageDecodingError) in try screenSize(gif) }
    }

    func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBAImage {
        try withFile(bytes) { gif throws(ImageDecodingError) in try firstFrame(gif) }
    }

    private func screenSize(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> PixelSize {
        let size = PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
        try checkDimensions(size, format: .gif, limit: limit, what: "logical screen")
        return size
    }

    private func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> RGBAImage {
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
                return try readFrame(gif, screen: screen, transparentIndex: transparentIndex)
            case TERMINATE_RECORD_TYPE:
                throw .corrupt(.gif, "no image in the file")
            default:
                throw .corrupt(.gif, "unexpected record type \(record.rawValue)")
            }
        }
    }

    private func readFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, screen: PixelSize, transparentIndex: Int?
    ) throws(ImageDecodingError) -> RGBAImage {
        let descriptor = gif.pointee.Image
        let frame = PixelSize(width: Int(descriptor.Width), height: Int(descriptor.Height))
        try checkDimensions(frame, format: .gif, limit: limit, what: "frame")
        guard let colorMap = descriptor.ColorMap ?? gif.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
            throw .corrupt(.gif, "no colour map")
        }
        let colorCount = Int(colorMap.pointee.ColorCount)
        let left = Int(descriptor.Left), top = Int(descriptor.Top)

        var canvas = [UInt8](repeating: 0, count: screen.width * screen.height * 4)
        var line = [GifPixelType](repeating: 0, count: frame.width)
        // Interlaced frames arrive in four passes: rows 0, 4, 2, 1 mod 8, 8, 4, 2.
        let rowOrder: [Int] = descriptor.Interlace
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: frame.height, by: step)) }
            : Array(0..<frame.height)
        for row in rowOrder {
            let ok = line.withUnsafeMutableBufferPointer { buffer in
                DGifGetLine(gif, buffer.baseAddress, Int32(frame.width))
            }
            guard ok == GIF_OK else { throw Self.error(gif) }
            let y = top + row
            guard y < screen.height else { continue }
            for x in 0..<frame.width where left + x < screen.width {
                let index = Int(line[x])
                if index == transparentIndex || index >= colorCount { continue }
                let color = colors[index]
                let offset = (y * screen.width + left + x) * 4
                canvas[offset] = color.Red
                canvas[offset + 1] = color.Green
                canvas[offset + 2] = color.Blue
                canvas[offset + 3] = 255
            }
        }
        return RGBAImage(width: screen.width, height: screen.height, pixels: canvas)
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
