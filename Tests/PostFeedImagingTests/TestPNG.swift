import Foundation

/// A PNG encoder for the tests, writing what libpng's simplified writer cannot: any
/// colour type and bit depth, Adam7 interlacing, a palette with transparency, a gAMA
/// chunk, every row filter, the image data split over several IDAT chunks. Deflate with
/// stored blocks (no compression).
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
    /// The filter of row y is `filters[y % filters.count]` (0 none, 1 sub, 2 up, 3
    /// average, 4 Paeth); interlaced images are always unfiltered.
    var filters: [UInt8] = [0]
    /// How many IDAT chunks the compressed data is split into (at most one per byte).
    var idatChunks = 1
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
        func chunk(_ type: String, _ body: [UInt8]) { data += TestImages.pngChunk(type, body) }
        chunk("IHDR", TestImages.be32(UInt32(width)) + TestImages.be32(UInt32(height))
              + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
        if let gamma { chunk("gAMA", TestImages.be32(gamma)) }
        if colorType == 3 { chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if !paletteAlpha.isEmpty { chunk("tRNS", paletteAlpha) }
        let compressed = Self.zlibStored(rawRows())
        let pieces = max(1, min(idatChunks, compressed.count))
        for piece in 0..<pieces {
            chunk("IDAT", Array(compressed[piece * compressed.count / pieces..<(piece + 1) * compressed.count / pieces]))
        }
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
            var prior: [UInt8]?
            for y in stride(from: y0, to: height, by: dy) {
                let row = pack(xs.flatMap { samples($0, y) })
                let filter = interlaced ? 0 : filters[y % max(1, filters.count)]
                raw.append(filter)
                raw += Self.filtered(row, prior: prior, filter: filter, bytesPerPixel: max(1, channels * Int(bitDepth) / 8))
                prior = row
            }
        }
        return raw
    }

    /// `row` filtered against the row above (PNG specification, section 9).
    private static func filtered(_ row: [UInt8], prior: [UInt8]?, filter: UInt8, bytesPerPixel bpp: Int) -> [UInt8] {
        func left(_ i: Int) -> Int { i >= bpp ? Int(row[i - bpp]) : 0 }
        func up(_ i: Int) -> Int { prior.map { Int($0[i]) } ?? 0 }
        func upLeft(_ i: Int) -> Int { i >= bpp ? prior.map { Int($0[i - bpp]) } ?? 0 : 0 }
        return row.indices.map { i in
            let predicted: Int
            switch filter {
            case 1: predicted = left(i)
            case 2: predicted = up(i)
            case 3: predicted = (left(i) + up(i)) / 2
            case 4:
                let a = left(i), b = up(i), c = upLeft(i), p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            default: predicted = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predicted)
        }
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
        return out + TestImages.be32(b << 16 | a)
    }

}
