/// The kitty graphics protocol's "transmit and display" (`a=T`) of decoded pixels, written
/// by PostFeed rather than libchafa (README, "Where this differs"): chafa 1.12 base64-encodes
/// each 512-byte piece of the pixels on its own, each with its own `=` padding, so its
/// joined payload is not the one base64 text the spec asks for, and undoing that (decode
/// every piece, encode again) on top of chafa's own scaling and encoding was most of a
/// cold kitty preview's rendering time. Here the pixels are encoded once, straight into the
/// output, and split into chunks of at most 4096 bytes, `m=1` on every chunk but the last.
///
/// Opaque images go as 24-bit RGB (`f=24`, a quarter fewer bytes to write and for the
/// terminal to read), others as 32-bit RGBA (`f=32`) with straight alpha, as the spec
/// reads it (chafa sent premultiplied pixels: translucent ones drawn darker). `c` and `r` give the cells the image
/// fills; the terminal scales the pixels to them.
enum KittyGraphics {
    /// The largest payload of one command the spec allows (a multiple of 4).
    static let chunkSize = 4096

    /// `image` transmitted and displayed over `cells` (columns × rows). Empty for an image
    /// or a box without pixels.
    static func transmission(of image: RGBAImage, cells: PixelSize) -> String {
        let pixelCount = image.width * image.height
        guard pixelCount > 0, cells.width > 0, cells.height > 0 else { return "" }
        let opaque = isOpaque(image)
        let bytesPerPixel = opaque ? 3 : 4
        let payloadLength = (pixelCount * bytesPerPixel + 2) / 3 * 4
        let chunks = (payloadLength + chunkSize - 1) / chunkSize
        let keys = Array("a=T,f=\(bytesPerPixel * 8),s=\(image.width),v=\(image.height),c=\(cells.width),r=\(cells.height),".utf8)
        // ESC _ G, m=1;, ESC \ around each chunk, the keys before the first.
        let capacity = payloadLength + chunks * 9 + keys.count
        return image.pixels.withUnsafeBufferPointer { pixels in
            String(unsafeUninitializedCapacity: capacity) { output in
                guard let source = pixels.baseAddress, let start = output.baseAddress else { return 0 }
                var out = start
                func put(_ byte: UInt8) {
                    out.pointee = byte
                    out += 1
                }
                for chunk in 0..<chunks {
                    let length = min(chunkSize, payloadLength - chunk * chunkSize)
                    put(0x1B)
                    put(UInt8(ascii: "_"))
                    put(UInt8(ascii: "G"))
                    if chunk == 0 { for byte in keys { put(byte) } }
                    put(UInt8(ascii: "m"))
                    put(UInt8(ascii: "="))
                    put(chunk < chunks - 1 ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                    put(UInt8(ascii: ";"))
                    let payload = UnsafeMutableBufferPointer(start: out, count: length)
                    if opaque {
                        // Three bytes a pixel are four characters: a chunk is whole pixels.
                        let first = chunk * (chunkSize / 4)
                        Base64.encodeRGB(of: source + first * 4, pixels: length / 4, into: payload)
                    } else {
                        let first = chunk * (chunkSize / 4 * 3)
                        let count = min(chunkSize / 4 * 3, pixelCount * 4 - first)
                        _ = Base64.encode(UnsafeBufferPointer(start: source + first, count: count), into: payload, at: 0)
                    }
                    out += length
                    put(0x1B)
                    put(UInt8(ascii: "\\"))
                }
                return out - start
            }
        }
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ image: RGBAImage) -> Bool {
        image.pixels.withUnsafeBytes { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}

/// Standard base64 (RFC 4648 §4) over bytes, for ``KittyGraphics``: straight into buffers
/// sized by the caller, two characters per table lookup.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The two characters for each 12 bits, the first in the low byte (the one stored first).
    private static let pairs: [UInt16] = (0..<4096).map { bits in
        UInt16(alphabet[bits >> 6]) | UInt16(alphabet[bits & 0x3F]) << 8
    }

    /// Encodes `bytes`, padded with `=`, into `output` from `offset`, which has room for
    /// `(bytes.count + 2) / 3 * 4` characters more. The offset after the last one.
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let length = (bytes.count + 2) / 3 * 4
        precondition(offset >= 0 && offset + length <= output.count, "Base64.encode: no room in the output")
        guard let input = bytes.baseAddress, let start = output.baseAddress else { return offset }
        return pairs.withUnsafeBufferPointer { pairs in
            guard let pairs = pairs.baseAddress else { return offset }
            var out = UnsafeMutableRawPointer(start + offset)
            var group = input
            let end = input + bytes.count
            while end - group >= 3 {
                let bits = Int(group[0]) << 16 | Int(group[1]) << 8 | Int(group[2])
                out.storeBytes(of: pairs[bits >> 12].littleEndian, as: UInt16.self)
                out.storeBytes(of: pairs[bits & 0xFFF].littleEndian, toByteOffset: 2, as: UInt16.self)
                out += 4
                group += 3
            }
            let left = end - group
            if left > 0 {
                let a = group[0], b = left == 2 ? group[1] : 0
                let characters = out.assumingMemoryBound(to: UInt8.self)
                characters[0] = alphabet[Int(a >> 2)]
                characters[1] = alphabet[Int((a & 0x03) << 4 | b >> 4)]
                characters[2] = left == 2 ? alphabet[Int((b & 0x0F) << 2)] : UInt8(ascii: "=")
                characters[3] = UInt8(ascii: "=")
                out += 4
            }
            return out - UnsafeMutableRawPointer(start)
        }
    }

    /// Encodes the red, green and blue bytes of `pixels` RGBA pixels from `source` (alpha
    /// skipped) into `output`, which has room for `pixels * 4` characters: each pixel's
    /// three bytes are one base64 group, so no padding.
    static func encodeRGB(of source: UnsafePointer<UInt8>, pixels: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(pixels >= 0 && pixels * 4 <= output.count, "Base64.encodeRGB: no room in the output")
        guard let start = output.baseAddress else { return }
        pairs.withUnsafeBufferPointer { pairs in
            guard let pairs = pairs.baseAddress else { return }
            var out = UnsafeMutableRawPointer(start)
            var pixel = source
            for _ in 0..<pixels {
                let bits = Int(pixel[0]) << 16 | Int(pixel[1]) << 8 | Int(pixel[2])
                let characters = UInt32(pairs[bits >> 12]) | UInt32(pairs[bits & 0xFFF]) << 16
                out.storeBytes(of: characters.littleEndian, as: UInt32.self)
                out += 4
                pixel += 4
            }
        }
    }
}
