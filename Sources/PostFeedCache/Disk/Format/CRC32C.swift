internal import CChecksum
import Foundation

/// CRC-32C of entry bodies and metadata (see ``EntryFooter``).
///
/// Why not SHA-256, as format 1 used: the checksum guards against torn writes, truncation
/// and flipped bits, not against an adversary (the cache root is the user's own folder),
/// and CRC-32C detects all of those an entry can suffer: every burst of up to 32 bits,
/// every odd number of flipped bits, and the rest with probability 1 − 2⁻³². With the
/// CPU's CRC32 instruction it runs several times faster than SHA-256 even with the SHA
/// extensions, whose cost was a quarter of a warm image replay's CPU (`postfeed-bench cache`).
struct CRC32C {
    private(set) var value: UInt32 = 0

    init() {}

    mutating func update(_ data: Data) {
        for region in data.regions {
            region.withUnsafeBytes { bytes in
                value = pf_crc32c(value, bytes.baseAddress, bytes.count)
            }
        }
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc = CRC32C()
        crc.update(data)
        return crc.value
    }

    /// `value` as it is stored in a footer: 4 bytes, little-endian.
    static func bytes(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}
