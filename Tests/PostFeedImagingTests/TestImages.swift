import Foundation
import CGIF
import CTurboJPEG
import CWebP
import PostFeedImaging

/// Small images made with the libraries' own encoders, and hand-made headers.
enum TestImages {
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    /// A colour gradient; `seed` changes the pattern.
    static func gradient(width: Int, height: Int, seed: Int = 0) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8((x * 255) / max(1, width - 1))
                pixels[offset + 1] = UInt8((y * 255) / max(1, height - 1))
                pixels[offset + 2] = UInt8(((x / 8 + y / 8 + seed) % 2) * 200)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func jpeg(_ image: RGBAImage, quality: Int32 = 85, subsampling: TJSAMP = TJSAMP_420) -> Data {
        guard let handle = tjInitCompress() else { return Data() }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), Int32(image.bytesPerRow),
                        Int32(image.height), Int32(TJPF_RGBA.rawValue), &output, &size,
                        Int32(subsampling.rawValue), quality, 0)
        }
        guard status == 0, let output else { return Data() }
        defer { tjFree(output) }
        return Data(bytes: output, count: Int(size))
    }

    static func webp(_ image: RGBAImage) -> Data {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = image.pixels.withUnsafeBufferPointer { pixels in
            WebPEncodeRGBA(pixels.baseAddress, Int32(image.width), Int32(image.height),
                           Int32(image.bytesPerRow), 80, &output)
        }
        guard size > 0, let output else { return Data() }
        defer { WebPFree(output) }
        return Data(bytes: output, count: size)
    }

    /// A one-frame GIF: each pixel's red channel, quantized to 8 grey-red levels, as index.
    static func gif(_ image: RGBAImage, interlaced: Bool = false) -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var error: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { file, bytes, count in
            guard let file, let bytes, let context = file.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().data.append(bytes, count: Int(count))
            return count
        }, &error) else { return Data() }
        var colors = (0..<256).map { GifColorType(Red: UInt8($0), Green: UInt8(255 - $0), Blue: 128) }
        let map = GifMakeMapObject(256, &colors)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        _ = EGifPutScreenDesc(gif, Int32(image.width), Int32(image.height), 8, 0, map)
        _ = EGifPutImageDesc(gif, 0, 0, Int32(image.width), Int32(image.height), interlaced, nil)
        var line = [GifPixelType](repeating: 0, count: image.width)
        let rows: [Int] = interlaced
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: image.height, by: step)) }
            : Array(0..<image.height)
        for y in rows {
            for x in 0..<image.width { line[x] = image.pixels[(y * image.width + x) * 4] }
            _ = EGifPutLine(gif, &line, Int32(image.width))
        }
        _ = EGifCloseFile(gif, &error)
        return withExtendedLifetime(sink) { sink.data }
    }

    /// A PNG that declares `width`×`height` in its IHDR followed by a tiny IDAT and IEND:
    /// a few hundred bytes whose header asks for gigabytes.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data += pngChunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        // zlib header + a stored deflate block of zeros: valid framing, far too short.
        data += pngChunk("IDAT", [0x78, 0x01] + [UInt8](repeating: 0, count: 2000))
        data += pngChunk("IEND", [])
        return data
    }

    /// A PNG chunk: its length, type, body and CRC-32.
    static func pngChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }

    /// `value` as four big-endian bytes.
    static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
