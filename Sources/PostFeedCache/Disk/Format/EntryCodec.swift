import Foundation

/// Turns entries into file bytes and back; see ``EntryFooter`` for the layout.
package enum EntryCodec {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The footer's checksum of `data`: CRC-32C, 4 bytes little-endian.
    package static func checksum(_ data: Data) -> [UInt8] {
        CRC32C.bytes(CRC32C.checksum(data))
    }

    /// Metadata JSON followed by the footer: what goes after a body of `bodyLength`
    /// bytes whose checksum (``checksum(_:)``) is `bodyChecksum`.
    package static func trailer(bodyLength: Int, bodyChecksum: [UInt8], metadata: CacheEntryMetadata) throws -> Data {
        let json = try encoder.encode(metadata)
        let footer = EntryFooter(
            bodyLength: bodyLength,
            metadataLength: json.count,
            bodyChecksum: bodyChecksum,
            metadataChecksum: checksum(json)
        )
        return json + footer.encoded()
    }

    /// Decodes and verifies a whole entry file. `expectedName` is the file's name: the
    /// metadata's key must hash to it, which catches a file copied or renamed onto the
    /// wrong key.
    package static func decode(_ file: Data, expectedName: String) throws(EntryDefect) -> (DiskCacheEntry, EntryFooter) {
        let size = file.count
        guard size >= EntryFooter.size else { throw .truncated(fileSize: size) }
        let footer = try EntryFooter.decode(file.suffix(EntryFooter.size), fileSize: size)
        let metadataStart = file.startIndex + footer.bodyLength
        let json = file[metadataStart..<metadataStart + footer.metadataLength]
        let metadata = try decodeMetadata(Data(json), footer: footer, expectedName: expectedName)
        let body = file.prefix(footer.bodyLength)
        guard checksum(body) == footer.bodyChecksum else { throw .bodyChecksumMismatch }
        return (DiskCacheEntry(data: body, metadata: metadata), footer)
    }

    /// Reads only the footer and metadata of an open entry file (statistics, pruning):
    /// the metadata is verified, the body is not.
    static func readMetadata(of file: SystemFile, expectedName: String) throws(EntryDefect) -> CacheEntryMetadata {
        try readMetadataAndFooter(of: file, expectedName: expectedName).metadata
    }

    /// ``readMetadata(of:expectedName:)`` with the footer it verified the metadata against
    /// (whose body length and checksum describe the body without reading it).
    static func readMetadataAndFooter(
        of file: SystemFile, expectedName: String
    ) throws(EntryDefect) -> (metadata: CacheEntryMetadata, footer: EntryFooter) {
        let size = try readingFile { () throws(SystemCallError) in Int(try file.status().st_size) }
        guard size >= EntryFooter.size else { throw .truncated(fileSize: size) }
        let footerBytes = try readingFile { () throws(SystemCallError) in
            try file.read(count: EntryFooter.size, at: size - EntryFooter.size)
        }
        let footer = try EntryFooter.decode(footerBytes, fileSize: size)
        let json = try readingFile { () throws(SystemCallError) in try file.read(count: footer.metadataLength, at: footer.bodyLength) }
        return (try decodeMetadata(json, footer: footer, expectedName: expectedName), footer)
    }

    /// Reads a whole entry file of `size` bytes and decodes it.
    static func read(_ file: SystemFile, size: Int, expectedName: String) throws(EntryDefect) -> (DiskCacheEntry, EntryFooter) {
        let bytes = try readingFile { () throws(SystemCallError) in try file.read(count: size, at: 0) }
        return try decode(bytes, expectedName: expectedName)
    }

    private static func readingFile<T>(_ body: () throws(SystemCallError) -> T) throws(EntryDefect) -> T {
        do { return try body() } catch { throw .unreadable(error.message) }
    }

    private static func decodeMetadata(_ json: Data, footer: EntryFooter, expectedName: String) throws(EntryDefect) -> CacheEntryMetadata {
        guard checksum(json) == footer.metadataChecksum else { throw .metadataChecksumMismatch }
        guard let metadata = try? JSONDecoder().decode(CacheEntryMetadata.self, from: json) else {
            throw .unreadableMetadata
        }
        guard CacheLayout.name(forKey: metadata.key) == expectedName else {
            throw .keyMismatch(found: metadata.key)
        }
        return metadata
    }
}
