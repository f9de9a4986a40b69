/// Minimal gzip (RFC 1952) writer using stored (uncompressed) deflate blocks.
///
/// Why not real compression: there is no zlib binding in this package and the `/test/gzip`
/// route only needs a valid `Content-Encoding: gzip` body for clients to decode; stored
/// blocks are valid deflate that every decoder accepts.
enum Gzip {
    static func encode(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var offset = 0
        repeat {
            let length = min(65_535, input.count - offset)
            let isFinal = offset + length == input.count
            output.append(isFinal ? 0x01 : 0x00)
            let lengthBits = UInt16(length)
            appendLittleEndian(lengthBits, to: &output)
            appendLittleEndian(~lengthBits, to: &output)
            output.append(contentsOf: input[offset..<(offset + length)])
            offset += length
        } while offset < input.count
        appendLittleEndian(CRC32.checksum(input), to: &output)
        appendLittleEndian(UInt32(truncatingIfNeeded: input.count), to: &output)
        return output
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to output: inout [UInt8]) {
        for shift in stride(from: 0, to: T.bitWidth, by: 8) {
            output.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as gzip's trailer needs.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}
