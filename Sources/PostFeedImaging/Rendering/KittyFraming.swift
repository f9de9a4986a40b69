import FoundationEssentials

/// Re-frames libchafa's kitty graphics output the way the kitty protocol asks: chafa
/// (1.12) base64-encodes each 512-byte piece of the pixels on its own, each with its own
/// `=` padding, so the joined payload is not valid base64; the spec wants the whole
/// payload encoded once, then split into chunks of at most 4096 bytes, `m=1` on every
/// chunk but the last. The pixels and control keys are chafa's; only the framing changes.
///
/// One pass over bytes: the pieces are decoded into one buffer and encoded again straight
/// into the output (a 40×20-cell preview is ~640 KB of base64; Foundation's per-piece
/// `Data(base64Encoded:)` and `String` appends cost ~6 ms of a ~15 ms preview).
enum KittyFraming {
    /// The largest payload of one command the spec allows (a multiple of 4).
    static let chunkSize = 4096

    /// One `ESC _G <keys> [; <payload>] ESC \` command, as byte ranges of the output.
    private struct Command {
        let keys: Range<Int>
        let payload: Range<Int>?
    }

    /// chafa's output re-framed, or the output as it is when it is not the one
    /// transmission of commands chafa writes, or its pieces do not decode.
    static func reframed(_ output: String) -> String {
        var output = output
        return output.withUTF8 { reframed($0) } ?? output
    }

    private static func reframed(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let commands = commands(in: bytes), let first = commands.first else { return nil }
        // Chafa's first command carries the keys (a=T, f=32, s=…, v=…) and its `m`; each
        // later one only `m` and a piece of the payload.
        let m = UInt8(ascii: "m"), equals = UInt8(ascii: "="), comma = UInt8(ascii: ",")
        func isM(_ keys: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            keys.count >= 2 && keys[keys.startIndex] == m && keys[keys.startIndex + 1] == equals
        }
        for command in commands.dropFirst() {
            let keys = bytes[command.keys]
            guard isM(keys), !keys.contains(comma) else { return nil }
        }
        let payloadCount = commands.reduce(0) { $0 + ($1.payload?.count ?? 0) }
        var decodedAll = true
        let pixels = [UInt8](unsafeUninitializedCapacity: payloadCount / 4 * 3) { buffer, count in
            for command in commands {
                guard let payload = command.payload else { continue }
                guard let written = Base64.decode(bytes[payload], into: buffer, at: count) else {
                    decodedAll = false
                    return
                }
                count = written
            }
        }
        guard decodedAll, !pixels.isEmpty else { return nil }
        // The first command's keys without its `m`, each followed by a comma.
        var keys: [UInt8] = []
        for key in bytes[first.keys].split(separator: comma) where !isM(key) {
            keys += key
            keys.append(comma)
        }

        let bytesPerChunk = chunkSize / 4 * 3
        let chunks = (pixels.count + bytesPerChunk - 1) / bytesPerChunk
        // ESC _ G, m=1;, ESC \ around each chunk.
        let capacity = (pixels.count + 2) / 3 * 4 + chunks * 9 + keys.count
        return String(unsafeUninitializedCapacity: capacity) { output in
            var count = 0
            func put(_ byte: UInt8) {
                output[count] = byte
                count += 1
            }
            pixels.withUnsafeBufferPointer { pixels in
                var start = 0
                while start < pixels.count {
                    let end = min(start + bytesPerChunk, pixels.count)
                    put(0x1B)
                    put(UInt8(ascii: "_"))
                    put(UInt8(ascii: "G"))
                    if start == 0 { for byte in keys { put(byte) } }
                    put(m)
                    put(equals)
                    put(end < pixels.count ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                    put(UInt8(ascii: ";"))
                    count = Base64.encode(UnsafeBufferPointer(rebasing: pixels[start..<end]), into: output, at: count)
                    put(0x1B)
                    put(UInt8(ascii: "\\"))
                    start = end
                }
            }
            return count
        }
    }

    /// The commands making up all of `bytes`, or nil when anything else is in them.
    private static func commands(in bytes: UnsafeBufferPointer<UInt8>) -> [Command]? {
        let escape: UInt8 = 0x1B, underscore = UInt8(ascii: "_"), g = UInt8(ascii: "G")
        let backslash = UInt8(ascii: "\\"), semicolon = UInt8(ascii: ";")
        var commands: [Command] = []
        var index = 0
        while index < bytes.count {
            guard index + 2 < bytes.count, bytes[index] == escape, bytes[index + 1] == underscore, bytes[index + 2] == g else {
                return nil
            }
            let start = index + 3
            var end = start
            // The payload is base64: the next ESC is the terminator's.
            while end < bytes.count, bytes[end] != escape { end += 1 }
            guard end + 1 < bytes.count, bytes[end + 1] == backslash else { return nil }
            if let split = bytes[start..<end].firstIndex(of: semicolon) {
                commands.append(Command(keys: start..<split, payload: (split + 1)..<end))
            } else {
                commands.append(Command(keys: start..<end, payload: nil))
            }
            index = end + 2
        }
        return commands.isEmpty ? nil : commands
    }
}

/// Standard base64 (RFC 4648 §4) over bytes, for ``KittyFraming``: straight into
/// buffers sized by the caller.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The value of each character, 0xFF for a character outside the alphabet.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { values[Int(character)] = UInt8(value) }
        return values
    }()

    /// Decodes one padded base64 text (its length a multiple of 4, `=` only at its end)
    /// into `output` from `offset`, which has room for `text.count / 4 * 3` bytes more.
    /// The offset after the last byte written, or nil when `text` is not one such text.
    static func decode(
        _ text: Slice<UnsafeBufferPointer<UInt8>>, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int? {
        guard text.count % 4 == 0, offset + text.count / 4 * 3 <= output.count else { return nil }
        let padding = UInt8(ascii: "=")
        return values.withUnsafeBufferPointer { values -> Int? in
            var out = offset
            var index = text.startIndex
            while index < text.endIndex {
                let a = values[Int(text[index])], b = values[Int(text[index + 1])]
                let third = text[index + 2], fourth = text[index + 3]
                let isLast = index + 4 == text.endIndex
                guard a != 0xFF, b != 0xFF else { return nil }
                // Bits left over in the last character before the padding are ignored, as
                // Foundation does: chafa's encoder leaves them set ("…/8P=").
                if isLast, third == padding {
                    guard fourth == padding else { return nil }
                    output[out] = a << 2 | b >> 4
                    return out + 1
                }
                let c = values[Int(third)]
                guard c != 0xFF else { return nil }
                if isLast, fourth == padding {
                    output[out] = a << 2 | b >> 4
                    output[out + 1] = b << 4 | c >> 2
                    return out + 2
                }
                let d = values[Int(fourth)]
                guard d != 0xFF else { return nil }
                output[out] = a << 2 | b >> 4
                output[out + 1] = b << 4 | c >> 2
                output[out + 2] = c << 6 | d
                out += 3
                index += 4
            }
            return out
        }
    }

    /// Encodes `bytes`, padded with `=`, into `output` from `offset`, which has room for
    /// `(bytes.count + 2) / 3 * 4` characters more. The offset after the last one.
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        alphabet.withUnsafeBufferPointer { alphabet in
            var out = offset
            var index = 0
            while index + 3 <= bytes.count {
                let a = bytes[index], b = bytes[index + 1], c = bytes[index + 2]
                output[out] = alphabet[Int(a >> 2)]
                output[out + 1] = alphabet[Int((a & 0x03) << 4 | b >> 4)]
                output[out + 2] = alphabet[Int((b & 0x0F) << 2 | c >> 6)]
                output[out + 3] = alphabet[Int(c & 0x3F)]
                out += 4
                index += 3
            }
            let left = bytes.count - index
            if left > 0 {
                let a = bytes[index], b = left == 2 ? bytes[index + 1] : 0
                output[out] = alphabet[Int(a >> 2)]
                output[out + 1] = alphabet[Int((a & 0x03) << 4 | b >> 4)]
                output[out + 2] = left == 2 ? alphabet[Int((b & 0x0F) << 2)] : UInt8(ascii: "=")
                output[out + 3] = UInt8(ascii: "=")
                out += 4
            }
            return out
        }
    }
}
