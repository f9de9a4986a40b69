import Foundation
import Testing
@testable import PostFeedCache

/// `synchronizesWrites` off (the image and page caches' setting): entries are written and
/// renamed into place without `fsync`, read back the same, and a torn one is still a miss.
@Suite("DiskCache without fsync")
struct DiskCacheUnsyncedWritesTests {
    static let key = "https://example.test/images/9.jpg"
    static let body = Data((0..<7000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    static func configuration() -> DiskCache.Configuration {
        var configuration = ManualDate().configuration()
        configuration.synchronizesWrites = false
        return configuration
    }

    @Test("Synced by default; unsynced entries round-trip through a second cache on the same folder")
    func roundTrip() throws {
        #expect(DiskCache.Configuration().synchronizesWrites)
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: Self.configuration())
        let metadata = CacheEntryMetadata(key: Self.key, etag: "\"v1\"", storedAt: Date(timeIntervalSince1970: 1_750_000_000))
        try cache.store(Self.body, metadata: metadata, forKey: Self.key)
        let other = try DiskCache(directory: directory.url, configuration: Self.configuration())
        #expect(other.entry(forKey: Self.key)?.data == Self.body)
        #expect(other.entry(forKey: Self.key)?.metadata.etag == "\"v1\"")
    }

    @Test("A torn unsynced entry (what a power cut can leave) is a miss and is removed")
    func tornEntryIsAMiss() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: Self.configuration())
        try cache.store(Self.body, metadata: CacheEntryMetadata(key: Self.key, storedAt: Date()), forKey: Self.key)
        try EntryFiles.truncate(Self.key, in: directory.url, to: 3000)
        #expect(cache.entry(forKey: Self.key) == nil)
        #expect(!EntryFiles.exists(Self.key, in: directory.url))
    }
}
