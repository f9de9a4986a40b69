import Foundation

/// Re-frames libchafa's kitty graphics output the way the kitty protocol asks: chafa
/// (1.12) base64-encodes each 512-byte piece of the pixels on its own, each with its own
/// `=` padding, so the joined payload is not valid base64; the spec wants the whole
/// payload encoded once, then split into chunks of at most 4096 bytes, `m=1` on every
/// chunk but the last. The pixels and control keys are chafa's; only the framing changes.
enum KittyFraming {
    /// The largest payload of one command the spec allows (a multiple of 4).
    static let chunkSize = 4096

    /// One `ESC _G <keys> [; <payload>] ESC \` command, as byte ranges of the output.
    private struct Command {
        let keys: ArraySlice<UInt8>
        let payload: ArraySlice<UInt8>?
    }

    /// chafa's output re-framed, or the output as it is when it is not the one
    /// transmission of commands chafa writes, or its pieces do not decode.
    static func reframed(_ output: String) -> String {
        let bytes = Array(output.utf8)
        guard let commands = commands(in: bytes), let first = commands.first else { return output }
        // Chafa's first command carries the keys (a=T, f=32, s=…, v=…) and its `m`; each
        // later one only `m` and a piece of the payload.
        let equalsM: [UInt8] = Array("m=".utf8)
        for command in commands.dropFirst() {
            guard command.keys.starts(with: equalsM), !command.keys.contains(UInt8(ascii: ",")) else { return output }
        }
        var pixels = Data()
        for command in commands {
            guard let payload = command.payload else { continue }
            guard let piece = Data(base64Encoded: Data(payload)) else { return output }
            pixels.append(piece)
        }
        guard !pixels.isEmpty else { return output }
        let keys = first.keys.split(separator: UInt8(ascii: ",")).filter { !$0.starts(with: equalsM) }
            .map { String(decoding: $0, as: UTF8.self) }
        let encoded = Array(pixels.base64EncodedData())
        var result = ""
        result.reserveCapacity(encoded.count + (encoded.count / chunkSize + 1) * 16 + 64)
        var start = 0
        while start < encoded.count {
            let end = min(start + chunkSize, encoded.count)
            let more = end < encoded.count ? "m=1" : "m=0"
            let control = start == 0 ? (keys + [more]).joined(separator: ",") : more
            result += "\u{1B}_G\(control);"
            result += String(decoding: encoded[start..<end], as: UTF8.self)
            result += "\u{1B}\\"
            start = end
        }
        return result
    }

    /// The commands making up all of `bytes`, or nil when anything else is in them.
    private static func commands(in bytes: [UInt8]) -> [Command]? {
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
            while end + 1 < bytes.count, !(bytes[end] == escape && bytes[end + 1] == backslash) { end += 1 }
            guard end + 1 < bytes.count else { return nil }
            let body = bytes[start..<end]
            if let split = body.firstIndex(of: semicolon) {
                commands.append(Command(keys: bytes[start..<split], payload: bytes[(split + 1)..<end]))
            } else {
                commands.append(Command(keys: body, payload: nil))
            }
            index = end + 2
        }
        return commands.isEmpty ? nil : commands
    }
}
