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

    /// Seeded pseudo-random pixels: detail in every cell.
    static func noise(width: Int, height: Int, seed: UInt64 = 1) -> RGBAImage {
        var state = seed
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            pixels[offset] = UInt8(truncatingIfNeeded: state >> 56)
            pixels[offset + 1] = UInt8(truncatingIfNeeded: state >> 48)
            pixels[offset + 2] = UInt8(truncatingIfNeeded: state >> 40)
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

    /// A one-frame GIF: each pixel's red channel as index into a palette where entry i is
    /// (i, 255 − i, 128). The frame is the logical screen, or drawn at `left`, `top` on a
    /// `screen` of another size; `transparent` makes that index transparent.
    static func gif(_ image: RGBAImage, interlaced: Bool = false, screen: PixelSize? = nil,
                    left: Int = 0, top: Int = 0, transparent: UInt8? = nil) -> Data {
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
        let screen = screen ?? image.size
        _ = EGifPutScreenDesc(gif, Int32(screen.width), Int32(screen.height), 8, 0, map)
        if let transparent {
            var control: [GifByteType] = [0x01, 0, 0, transparent]
            _ = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &control)
        }
        _ = EGifPutImageDesc(gif, Int32(left), Int32(top), Int32(image.width), Int32(image.height), interlaced, nil)
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

extension TestImages {
    /// A CMYK JPEG compressed by TurboJPEG from `cmyk` (four bytes a pixel, C M Y K as
    /// stored): TurboJPEG writes it as YCCK, with the Adobe marker that says so.
    static func ycckJPEG(width: Int, height: Int, cmyk: [UInt8], subsampling: TJSAMP = TJSAMP_420) -> Data {
        guard let handle = tjInitCompress() else { return Data() }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = cmyk.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(width), Int32(width * 4), Int32(height),
                        Int32(TJPF_CMYK.rawValue), &output, &size, Int32(subsampling.rawValue), 95, 0)
        }
        guard status == 0, let output else { return Data() }
        defer { tjFree(output) }
        return Data(bytes: output, count: Int(size))
    }

    /// An 8×8 baseline JPEG of four components (plain CMYK, no YCCK transform) with every
    /// pixel `cmyk` as stored, built by hand: one DC-only block per component with a
    /// quantizer of 1, so it decodes to exactly `cmyk`. `adobeMarker` adds Adobe's APP14
    /// marker (transform 0: CMYK), the one that says the values are inverted.
    static func solidCMYKJPEG(_ cmyk: [UInt8], adobeMarker: Bool) -> Data {
        var data: [UInt8] = [0xFF, 0xD8]
        if adobeMarker {
            data += [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00]
        }
        data += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        data += [0xFF, 0xC0, 0x00, 0x14, 0x08, 0x00, 0x08, 0x00, 0x08, 0x04]
        for id in 1...4 { data += [UInt8(id), 0x11, 0x00] }
        // DC table: categories 0…11, each the 4-bit code equal to itself. AC table: EOB only, "0".
        data += [0xFF, 0xC4, 0x00, 0x1F, 0x00, 0, 0, 0, 12] + [UInt8](repeating: 0, count: 12) + Array(0...11)
        data += [0xFF, 0xC4, 0x00, 0x14, 0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        data += [0xFF, 0xDA, 0x00, 0x0E, 0x04]
        for id in 1...4 { data += [UInt8(id), 0x00] }
        data += [0x00, 0x3F, 0x00]
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        for value in cmyk.prefix(4) {
            // A flat block's DC coefficient is 8 × (value − 128); each component's first
            // block is predicted from 0.
            let dc = 8 * (Int(value) - 128)
            let category = dc == 0 ? 0 : (Int.bitWidth - abs(dc).leadingZeroBitCount)
            put(category, 4)
            put(dc >= 0 ? dc : dc + (1 << category) - 1, category)
            put(0, 1)  // EOB
        }
        while bits.count % 8 != 0 { bits.append(true) }
        for start in stride(from: 0, to: bits.count, by: 8) {
            let byte = bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            data.append(byte)
            if byte == 0xFF { data.append(0x00) }
        }
        data += [0xFF, 0xD9]
        return Data(data)
    }
}

extension TestImages {
    /// An animated WebP built by hand around `frames` (each a still WebP from ``webp(_:)``,
    /// without alpha, at an even offset): VP8X with the animation flag, ANIM, then one
    /// ANMF per frame holding the still's VP8 chunk.
    static func animatedWebP(canvas: PixelSize, frames: [(webp: Data, size: PixelSize, left: Int, top: Int)]) -> Data {
        func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8(value >> 24 & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            Array(type.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
        }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + le24(canvas.width - 1) + le24(canvas.height - 1))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for frame in frames {
            let still = [UInt8](frame.webp.dropFirst(12))  // RIFF, size, WEBP: the VP8 chunk follows
            let header = le24(frame.left / 2) + le24(frame.top / 2) + le24(frame.size.width - 1)
                + le24(frame.size.height - 1) + le24(100) + [0x02]  // no blending, no disposal
            body += chunk("ANMF", header + still)
        }
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }
}
