import Foundation

/// A PNG encoder for the tests, writing what libpng's simplified writer cannot: any
/// colour type and bit depth, Adam7 interlacing, a palette with transparency, a gAMA
/// chunk. Deflate with stored blocks (no compression), unfiltered rows.
struct TestPNG {
    var width: Int
    var height: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA.
    var colorType: UInt8
    var bitDepth: UInt8 = 8
    var interlaced = false
    /// PLTE entries (colour type 3).
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// tRNS: alpha per palette entry.
    var paletteAlpha: [UInt8] = []
    /// gAMA, in units of 1/100000.
    var gamma: UInt32?
    /// The samples of pixel (x, y), each in 0 ..< 2^bitDepth (a palette index for type 3).
    var samples: (Int, Int) -> [Int]

    var channels: Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    func encode() -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            data.append(contentsOf: Self.be32(UInt32(body.count)))
            let typed = Array(type.utf8) + body
            data.append(contentsOf: typed)
            data.append(contentsOf: Self.be32(TestImages.crc32(typed)))
        }
        chunk("IHDR", Self.be32(UInt32(width)) + Self.be32(UInt32(height))
              + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
        if let gamma { chunk("gAMA", Self.be32(gamma)) }
        if colorType == 3 { chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if !paletteAlpha.isEmpty { chunk("tRNS", paletteAlpha) }
        chunk("IDAT", Self.zlibStored(rawRows()))
        chunk("IEND", [])
        return data
    }

    /// The filtered (filter 0) scanlines, pass by pass when interlaced.
    private func rawRows() -> [UInt8] {
        let passes: [(Int, Int, Int, Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            guard !xs.isEmpty else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)
                raw += pack(xs.flatMap { samples($0, y) })
            }
        }
        return raw
    }

    /// Samples packed most significant bit first (below 8 bits) or big-endian (16).
    private func pack(_ values: [Int]) -> [UInt8] {
        switch bitDepth {
        case 16: return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return values.map { UInt8($0) }
        default:
            let depth = Int(bitDepth)
            var bytes: [UInt8] = []
            var current = 0, used = 0
            for value in values {
                current = (current << depth) | value
                used += depth
                if used == 8 {
                    bytes.append(UInt8(current))
                    current = 0
                    used = 0
                }
            }
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            let last = offset + count == bytes.count
            out.append(last ? 1 : 0)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }

    private static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
}
