import Foundation

extension DiskCache {
    /// What an entry's footer and metadata say about it, read without its body: enough to
    /// tell whether a derived entry (a thumbnail) still matches the entry it came from.
    public struct EntrySummary: Sendable, Equatable {
        /// The entry's metadata, verified against its checksum.
        public var metadata: CacheEntryMetadata
        /// The body's length in bytes.
        public var bodyLength: Int
        /// The body's CRC-32C as the footer records it (the same as
        /// ``DiskCache/bodyChecksum(of:)`` of the body): `8 hex digits-length`, e.g.
        /// `1a2b3c4d-5120`.
        public var bodyChecksum: String
    }

    /// How a body's checksum is written in ``EntrySummary/bodyChecksum``: CRC-32C in hex,
    /// a dash, the length. Lets a caller holding the bytes compare with an entry on disk.
    public static func bodyChecksum(of data: Data) -> String {
        checksumText(CRC32C.checksum(data), length: data.count)
    }

    private static func checksumText(_ crc: UInt32, length: Int) -> String {
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex + "-\(length)"
    }

    /// The footer and metadata of `key`'s entry, without reading or checking its body, and
    /// without counting a hit or a miss; `nil` when there is none or it does not verify.
    public func summary(forKey key: String) -> EntrySummary? {
        let name = CacheLayout.name(forKey: key)
        guard let file = try? openEntry(name),
              let (metadata, footer) = try? EntryCodec.readMetadataAndFooter(of: file, expectedName: name)
        else { return nil }
        var crc: UInt32 = 0
        for (index, byte) in footer.bodyChecksum.enumerated() { crc |= UInt32(byte) << (8 * UInt32(index)) }
        return EntrySummary(
            metadata: metadata, bodyLength: footer.bodyLength,
            bodyChecksum: Self.checksumText(crc, length: footer.bodyLength))
    }

    /// What ``removeEntries(where:)`` removed.
    public struct RemovalReport: Sendable, Equatable {
        /// Entries removed.
        public var entriesRemoved: Int
        /// Bytes their files took.
        public var bytesFreed: Int
    }

    /// Removes every entry whose metadata `shouldRemove` accepts (entries whose metadata
    /// does not verify are left to ``prune()``). Reads only metadata; each file is
    /// unlinked under the lock, and only if it is still the file judged, so an entry
    /// another process rewrote meanwhile stays.
    ///
    /// ```swift
    /// // Thumbnails whose original is gone:
    /// thumbnails.removeEntries { images.summary(forKey: $0.attributes["original"] ?? "") == nil }
    /// ```
    public func removeEntries(where shouldRemove: (CacheEntryMetadata) -> Bool) -> RemovalReport {
        let listing = DirectoryListing(folders)
        var report = RemovalReport(entriesRemoved: 0, bytesFreed: 0)
        for file in listing.entries {
            guard let handle = try? file.open(),
                  let metadata = try? EntryCodec.readMetadata(of: handle, expectedName: file.name),
                  shouldRemove(metadata)
            else { continue }
            if removeEntryFile(named: file.name, in: file.folder, identity: file.identity) {
                report.entriesRemoved += 1
                report.bytesFreed += file.size
            }
        }
        return report
    }
}
