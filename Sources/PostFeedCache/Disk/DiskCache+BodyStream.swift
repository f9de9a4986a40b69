import Foundation
import Synchronization

extension DiskCache {
    /// An entry's body read from its file chunk by chunk, never whole into memory: for a
    /// service answering with a large image. The file stays open while the body is read,
    /// so an entry replaced or removed meanwhile is still read whole (its old bytes). The
    /// body's CRC-32C is checked as it goes: the last chunk throws `.ioFailure` when the
    /// bytes on disk are not those the footer recorded, so a torn body is never handed on
    /// as a whole one.
    ///
    /// ```swift
    /// if let body = cache.body(forKey: key) {
    ///     for try await chunk in body.chunks() { try await writer.write(chunk) }
    /// }
    /// ```
    public final class EntryBody: Sendable {
        /// The entry's metadata (content type, validators), verified.
        public let metadata: CacheEntryMetadata
        /// The body's length in bytes.
        public let length: Int
        private let expectedChecksum: UInt32
        private let path: String
        private let key: String
        private let state: Mutex<ReadState>

        private struct ReadState: ~Copyable {
            var file: SystemFile?
            var offset = 0
            var checksum = CRC32C()
        }

        init(file: sending SystemFile, metadata: CacheEntryMetadata, length: Int, checksum: UInt32, path: String, key: String) {
            self.metadata = metadata
            self.length = length
            self.expectedChecksum = checksum
            self.path = path
            self.key = key
            self.state = Mutex(ReadState(file: file))
        }

        /// The next chunk of at most `maximumBytes` bytes (at least 1), or `nil` after the
        /// last one (the file is closed then).
        /// - Throws: ``DiskCacheError`` `.ioFailure` when the file cannot be read or the
        ///   body does not match its checksum.
        public func nextChunk(maximumBytes: Int = 64 * 1024) throws(DiskCacheError) -> Data? {
            let path = path, key = key, length = length, expected = expectedChecksum
            return try state.withLock { state throws(DiskCacheError) -> Data? in
                guard let file = state.file else { return nil }
                let count = min(max(1, maximumBytes), length - state.offset)
                guard count > 0 else {
                    state.file = nil
                    try? file.close()
                    guard state.checksum.value == expected else {
                        throw DiskCacheError(.ioFailure, path: path, key: key, reason: "the body does not match its checksum (changed on disk)")
                    }
                    return nil
                }
                let data: Data
                do throws(SystemCallError) {
                    data = try file.read(count: count, at: state.offset)
                } catch {
                    state.file = nil
                    try? file.close()
                    throw DiskCacheError(error, key: key, path: path)
                }
                state.offset += count
                state.checksum.update(data)
                return data
            }
        }

        /// The body as an async sequence of chunks of at most `size` bytes.
        public func chunks(of size: Int = 64 * 1024) -> Chunks { Chunks(body: self, size: size) }

        /// ``EntryBody/chunks(of:)``: each chunk read when asked for.
        public struct Chunks: AsyncSequence, Sendable {
            public typealias Element = Data
            public typealias Failure = DiskCacheError
            let body: EntryBody
            let size: Int

            public func makeAsyncIterator() -> Iterator { Iterator(body: body, size: size) }

            /// Reads the next chunk from the file.
            public struct Iterator: AsyncIteratorProtocol {
                let body: EntryBody
                let size: Int

                public mutating func next() async throws(DiskCacheError) -> Data? {
                    try body.nextChunk(maximumBytes: size)
                }

                public mutating func next(isolation actor: isolated (any Actor)?) async throws(DiskCacheError) -> Data? {
                    try body.nextChunk(maximumBytes: size)
                }
            }
        }
    }

    /// `key`'s body to read in chunks (``EntryBody``), its footer and metadata verified;
    /// `nil` when there is no such entry or it does not verify. Counts no hit or miss.
    public func body(forKey key: String) -> EntryBody? {
        let name = CacheLayout.name(forKey: key)
        guard let file = try? openEntry(name) else { return nil }
        guard let (metadata, footer) = try? EntryCodec.readMetadataAndFooter(of: file, expectedName: name) else {
            try? file.close()
            return nil
        }
        var crc: UInt32 = 0
        for (index, byte) in footer.bodyChecksum.enumerated() { crc |= UInt32(byte) << (8 * UInt32(index)) }
        let path = fileURL(forKey: key)?.path ?? directory.path
        return EntryBody(file: file, metadata: metadata, length: footer.bodyLength, checksum: crc, path: path, key: key)
    }
}
