import FoundationEssentials
import Glibc

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

    /// `bytes` (chafa's output) re-framed, or nil when they are not the one transmission
    /// of commands chafa writes, or its pieces do not decode.
    static func reframed(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
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
        // The decoded length of every payload (its `=` padding read off its end), so the
        // output is sized, and its last chunk known, before anything is decoded.
        var total = 0
        var largestPiece = 0
        for command in commands {
            guard let payload = command.payload else { continue }
            guard payload.count % 4 == 0 else { return nil }
            var length = payload.count / 4 * 3
            if payload.count >= 4 {
                if bytes[payload.upperBound - 1] == equals { length -= 1 }
                if bytes[payload.upperBound - 2] == equals { length -= 1 }
            }
            total += length
            largestPiece = max(largestPiece, payload.count / 4 * 3)
        }
        guard total > 0 else { return nil }
        // The first command's keys without its `m`, each followed by a comma.
        var keys: [UInt8] = []
        for key in bytes[first.keys].split(separator: comma) where !isM(key) {
            keys += key
            keys.append(comma)
        }

        let bytesPerChunk = chunkSize / 4 * 3
        let chunks = (total + bytesPerChunk - 1) / bytesPerChunk
        // ESC _ G, m=1;, ESC \ around each chunk.
        let capacity = (total + 2) / 3 * 4 + chunks * 9 + keys.count
        var decodedAll = true
        // Streamed: each piece is decoded into one chunk's buffer (with room for a piece
        // past it), and each full chunk encoded out at once; the pixels are never whole.
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytesPerChunk + largestPiece) { chunk in
            String(unsafeUninitializedCapacity: capacity) { output in
                var count = 0
                var emitted = 0
                var filled = 0
                func put(_ byte: UInt8) {
                    output[count] = byte
                    count += 1
                }
                func emit(_ length: Int) {
                    put(0x1B)
                    put(UInt8(ascii: "_"))
                    put(UInt8(ascii: "G"))
                    if emitted == 0 { for byte in keys { put(byte) } }
                    emitted += length
                    put(m)
                    put(equals)
                    put(emitted < total ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                    put(UInt8(ascii: ";"))
                    count = Base64.encode(UnsafeBufferPointer(rebasing: chunk[0..<length]), into: output, at: count)
                    put(0x1B)
                    put(UInt8(ascii: "\\"))
                }
                for command in commands {
                    guard let payload = command.payload else { continue }
                    guard let end = Base64.decode(bytes[payload], into: chunk, at: filled) else {
                        decodedAll = false
                        return 0
                    }
                    filled = end
                    while filled >= bytesPerChunk {
                        emit(bytesPerChunk)
                        let rest = filled - bytesPerChunk
                        if rest > 0, let base = chunk.baseAddress { memmove(base, base + bytesPerChunk, rest) }
                        filled = rest
                    }
                }
                if filled > 0 { emit(filled) }
                return count
            }
        }
        return decodedAll ? text : nil
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
            if let base = bytes.baseAddress, start < bytes.count,
                let found = memchr(base + start, Int32(escape), bytes.count - start)
            {
                end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            } else {
                end = bytes.count
            }
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
        guard text.count % 4 == 0, offset >= 0, offset + text.count / 4 * 3 <= output.count else { return nil }
        guard !text.isEmpty else { return offset }
        guard let input = text.base.baseAddress.map({ $0 + text.startIndex }), let start = output.baseAddress else { return nil }
        return values.withUnsafeBufferPointer { values -> Int? in
            guard let values = values.baseAddress else { return nil }
            var out = start + offset
            // Every group but the last has no padding. An invalid character's value is
            // 0xFF, so one OR over all the values says whether any was invalid.
            var invalid: UInt8 = 0
            var group = input
            let last = input + (text.count - 4)
            while group < last {
                let a = values[Int(group[0])], b = values[Int(group[1])]
                let c = values[Int(group[2])], d = values[Int(group[3])]
                invalid |= a | b | c | d
                out[0] = a << 2 | b >> 4
                out[1] = b << 4 | c >> 2
                out[2] = c << 6 | d
                out += 3
                group += 4
            }
            guard invalid & 0x80 == 0 else { return nil }
            // The last group, where `=` may stand for the third and fourth characters. Bits
            // left over before the padding are ignored, as Foundation does: chafa's
            // encoder leaves them set ("…/8P=").
            let padding = UInt8(ascii: "=")
            let a = values[Int(last[0])], b = values[Int(last[1])]
            guard a != 0xFF, b != 0xFF else { return nil }
            out[0] = a << 2 | b >> 4
            if last[2] == padding {
                guard last[3] == padding else { return nil }
                return out + 1 - start
            }
            let c = values[Int(last[2])]
            guard c != 0xFF else { return nil }
            out[1] = b << 4 | c >> 2
            if last[3] == padding { return out + 2 - start }
            let d = values[Int(last[3])]
            guard d != 0xFF else { return nil }
            out[2] = c << 6 | d
            return out + 3 - start
        }
    }

    /// Encodes `bytes`, padded with `=`, into `output` from `offset`, which has room for
    /// `(bytes.count + 2) / 3 * 4` characters more. The offset after the last one.
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let length = (bytes.count + 2) / 3 * 4
        precondition(offset >= 0 && offset + length <= output.count, "Base64.encode: no room in the output")
        guard let input = bytes.baseAddress, let start = output.baseAddress else { return offset }
        return alphabet.withUnsafeBufferPointer { alphabet in
            guard let alphabet = alphabet.baseAddress else { return offset }
            var out = start + offset
            var group = input
            let end = input + bytes.count
            while end - group >= 3 {
                let a = group[0], b = group[1], c = group[2]
                out[0] = alphabet[Int(a >> 2)]
                out[1] = alphabet[Int((a & 0x03) << 4 | b >> 4)]
                out[2] = alphabet[Int((b & 0x0F) << 2 | c >> 6)]
                out[3] = alphabet[Int(c & 0x3F)]
                out += 4
                group += 3
            }
            let left = end - group
            if left > 0 {
                let a = group[0], b = left == 2 ? group[1] : 0
                out[0] = alphabet[Int(a >> 2)]
                out[1] = alphabet[Int((a & 0x03) << 4 | b >> 4)]
                out[2] = left == 2 ? alphabet[Int((b & 0x0F) << 2)] : UInt8(ascii: "=")
                out[3] = UInt8(ascii: "=")
                out += 4
            }
            return out - start
        }
    }
}
