import CPNG
import Foundation

/// PNGs for the tests compressed with the real zlib, for images too large for
/// ``TestPNG``'s stored blocks (a 2,000,000×10 image of a few flat bands is a few
/// kilobytes here, 20 MB there).
enum ZlibPNG {
    /// A PNG of `height` rows, row `y` being filter byte 0 and `row(y)`'s bytes (packed
    /// samples, big-endian at 16 bits). Not interlaced unless `interlacedRows` is given:
    /// then those bytes are the whole image data, pass by pass, as written.
    static func encode(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8 = 8,
        interlacedRows: [UInt8]? = nil, row: (Int) -> [UInt8] = { _ in [] }
    ) -> Data {
        var raw: [UInt8]
        if let interlacedRows {
            raw = interlacedRows
        } else {
            raw = []
            for y in 0..<height {
                raw.append(0)
                raw += row(y)
            }
        }
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data += chunk("IHDR", TestImages.be32(UInt32(width)) + TestImages.be32(UInt32(height))
                      + [bitDepth, colorType, 0, 0, interlacedRows == nil ? 0 : 1])
        data += chunk("IDAT", deflate(raw))
        data += chunk("IEND", [])
        return data
    }

    /// `bytes` as one zlib stream (zlib's `compress2`, level 9).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), 9)
            }
        }
        precondition(status == Z_OK, "compress2 failed: \(status)")
        return Array(out.prefix(Int(size)))
    }

    /// A chunk with its length and zlib's CRC-32.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return TestImages.be32(UInt32(body.count)) + typed + TestImages.be32(UInt32(crc))
    }
}
