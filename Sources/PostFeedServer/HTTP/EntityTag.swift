import Foundation
import NIOCore

/// An HTTP entity tag (RFC 9110 §8.8.3): an opaque quoted string, strong or weak (`W/"…"`).
struct EntityTag: Hashable, Sendable, CustomStringConvertible {
    /// The text between the quotes.
    let opaque: String
    let isWeak: Bool

    /// A strong tag derived from a hash of `bytes`, so equal content always gets the same tag.
    init(strongHashOf bytes: UnsafeRawBufferPointer) {
        var hash = ContentHash()
        hash.update(bytes)
        self.init(opaque: hash.hexDigest, isWeak: false)
    }

    /// A strong tag for a buffer's readable bytes.
    init(strongHashOf buffer: ByteBuffer) {
        self = buffer.withUnsafeReadableBytes { EntityTag(strongHashOf: $0) }
    }

    /// A strong tag for the bytes of `data`.
    init(strongHashOf data: Data) {
        self = data.withUnsafeBytes { EntityTag(strongHashOf: $0) }
    }

    init(opaque: String, isWeak: Bool = false) {
        self.opaque = opaque
        self.isWeak = isWeak
    }

    /// The header form, e.g. `"5f3a…"` or `W/"5f3a…"`.
    var description: String { (isWeak ? "W/" : "") + "\"" + opaque + "\"" }

    /// Weak comparison (RFC 9110 §8.8.3.2): opaque parts equal, weakness ignored. This is the
    /// comparison `If-None-Match` uses.
    func weaklyMatches(_ other: EntityTag) -> Bool { opaque == other.opaque }
}

/// 128 bits of FNV-1a (two 64-bit lanes with different offsets): a fast content hash for
/// ETags. Not cryptographic; the fixtures are not adversarial.
struct ContentHash {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325
    private var high: UInt64 = 0x6c62_272e_07bb_0142
    private var count: UInt64 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        // A plain loop over raw memory: fast enough even in debug builds, where generic
        // sequence iteration over megabytes of images is not.
        for byte in bytes {
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            high = (high ^ UInt64(byte ^ 0x5a)) &* 0x0000_0100_0000_01b3
            count &+= 1
        }
    }

    var hexDigest: String {
        // The length is mixed in so that two bodies differing only in trailing zero bytes differ.
        let mixedHigh = high ^ (count &* 0x9e37_79b9_7f4a_7c15)
        return Self.hex(mixedHigh) + Self.hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
