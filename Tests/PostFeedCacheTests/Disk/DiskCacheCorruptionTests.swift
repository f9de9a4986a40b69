import Foundation
import Testing
@testable import PostFeedCache

/// Every way an entry file can go bad is a miss, and the file is removed and counted
/// (Coil's DiskLruCacheTest and Nuke's DataCacheTests cover the same ground).
@Suite("DiskCache corruption")
struct DiskCacheCorruptionTests {
    static let key = "https://example.test/images/7.jpg"
    static let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })

    /// A cache holding one valid entry for `key`; returns its file size.
    static func cacheWithEntry(_ directory: TemporaryDirectory) throws -> (DiskCache, Int) {
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let metadata = CacheEntryMetadata(key: key, etag: "\"abc\"", storedAt: Date(timeIntervalSince1970: 1_750_000_000))
        try cache.store(body, metadata: metadata, forKey: key)
        let size = try EntryFiles.bytes(of: key, in: directory.url).count
        #expect(cache.entry(forKey: key)?.data == body)  // valid before we break it
        return (cache, size)
    }

    /// Then: a miss, the file gone, the removal counted, and the cache still usable.
    static func expectMissAndRemoved(_ cache: DiskCache, _ directory: TemporaryDirectory,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(cache.entry(forKey: key) == nil, sourceLocation: sourceLocation)
        #expect(!EntryFiles.exists(key, in: directory.url), sourceLocation: sourceLocation)
        #expect(cache.statistics().corruptEntriesRemoved == 1, sourceLocation: sourceLocation)
        try cache.store(body, metadata: CacheEntryMetadata(key: key, storedAt: Date()), forKey: key)
        #expect(cache.entry(forKey: key)?.data == body, sourceLocation: sourceLocation)
    }

    @Test("A truncated entry is a miss and is removed", arguments: [0, 10, 4999, 5000, 5050, -1])
    func truncated(cut: Int) throws {
        // Given a valid entry
        let directory = try TemporaryDirectory()
        let (cache, size) = try Self.cacheWithEntry(directory)
        // When it is cut short (inside the body, metadata or footer)
        try EntryFiles.truncate(Self.key, in: directory.url, to: cut >= 0 ? cut : size + cut)
        // Then
        try Self.expectMissAndRemoved(cache, directory)
    }

    @Test("A flipped byte anywhere — body, metadata, each footer field — is a miss and is removed",
          arguments: [
              0, 2500, 4999,          // body
              5000, 5020, -33,        // metadata JSON (first byte, middle, last)
              -32, -29,               // footer magic
              -28,                    // version
              -26,                    // footer length
              -24, -17,               // body length
              -16, -9,                // metadata length
              -8, -5,                 // body checksum
              -4, -1,                 // metadata checksum
          ])
    func flippedByte(offset: Int) throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        try EntryFiles.flipByte(at: offset, of: Self.key, in: directory.url)
        try Self.expectMissAndRemoved(cache, directory)
    }

    @Test("Extra bytes appended to an entry make it a miss")
    func appended() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        var data = try EntryFiles.bytes(of: Self.key, in: directory.url)
        data.append(0)
        try EntryFiles.write(data, for: Self.key, in: directory.url)
        try Self.expectMissAndRemoved(cache, directory)
    }

    @Test("A garbage file at the entry's path is a miss and is removed")
    func garbage() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        try EntryFiles.write(Data((0..<300).map { _ in UInt8.random(in: 0...255) }), for: Self.key, in: directory.url)
        try Self.expectMissAndRemoved(cache, directory)
    }

    @Test("An entry of a future format version is a miss and is removed")
    func wrongVersion() throws {
        // Given an otherwise intact entry whose footer says version 3
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        var data = try EntryFiles.bytes(of: Self.key, in: directory.url)
        data[data.count - EntryFiles.footerSize + 4] = 3
        try EntryFiles.write(data, for: Self.key, in: directory.url)
        // Then verify names the reason, and the read is a miss
        let report = cache.verify()
        #expect(report.problems.map(\.reason) == ["entry format version 3, this build reads 2"])
        #expect(cache.entry(forKey: Self.key) == nil)
        #expect(!EntryFiles.exists(Self.key, in: directory.url))
    }

    @Test("Metadata with a valid checksum but not entry JSON is a miss and is removed")
    func garbageMetadataWithValidChecksum() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        // A well-formed file whose metadata is JSON, just not entry metadata
        let json = Data("{\"hello\":\"world\"}".utf8)
        let footer = EntryFooter(bodyLength: Self.body.count, metadataLength: json.count,
                                 bodyChecksum: EntryCodec.checksum(Self.body), metadataChecksum: EntryCodec.checksum(json))
        try EntryFiles.write(Self.body + json + footer.encoded(), for: Self.key, in: directory.url)
        try Self.expectMissAndRemoved(cache, directory)
    }

    @Test("Another key's entry copied onto this key's path is a miss and is removed")
    func entryOfAnotherKey() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        try cache.store(Data("other".utf8), metadata: CacheEntryMetadata(key: "other", storedAt: Date()), forKey: "other")
        try EntryFiles.write(try EntryFiles.bytes(of: "other", in: directory.url), for: Self.key, in: directory.url)
        try Self.expectMissAndRemoved(cache, directory)
        #expect(cache.entry(forKey: "other")?.data == Data("other".utf8))
    }

    @Test("An entry deleted underneath is a plain miss, not a crash or a corruption")
    func deletedUnderneath() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        try FileManager.default.removeItem(at: EntryFiles.path(of: Self.key, in: directory.url))
        #expect(cache.entry(forKey: Self.key) == nil)
        #expect(cache.statistics().corruptEntriesRemoved == 0)
        // and the whole folder tree too
        try FileManager.default.removeItem(at: directory.url)
        #expect(cache.entry(forKey: Self.key) == nil)
        try cache.store(Self.body, metadata: CacheEntryMetadata(key: Self.key, storedAt: Date()), forKey: Self.key)
        #expect(cache.entry(forKey: Self.key)?.data == Self.body)
    }

    @Test("A corrupt entry hit by updateMetadata is removed and reported as not found")
    func updateOfCorruptEntry() throws {
        let directory = try TemporaryDirectory()
        let (cache, _) = try Self.cacheWithEntry(directory)
        try EntryFiles.flipByte(at: 100, of: Self.key, in: directory.url)
        let error = try #require(throws: DiskCacheError.self) {
            try cache.updateMetadata(forKey: Self.key) { $0.etag = "new" }
        }
        #expect(error.code == .entryNotFound)
        #expect(error.reason.contains("body checksum mismatch"))
        #expect(!EntryFiles.exists(Self.key, in: directory.url))
    }

    @Test("A garbage size ledger is recounted from the directory on the next write")
    func garbageLedger() throws {
        let directory = try TemporaryDirectory()
        let (cache, size) = try Self.cacheWithEntry(directory)
        try Data("not a ledger at all, definitely".utf8).write(to: directory.appending(".lock"))
        try cache.store(Data(count: 10), metadata: CacheEntryMetadata(key: "x", storedAt: Date()), forKey: "x")
        let ledger = try #require(SizeLedger.decode(try Data(contentsOf: directory.appending(".lock"))))
        #expect(ledger.entries == 2)
        #expect(Int(ledger.bytes) == size + (try EntryFiles.bytes(of: "x", in: directory.url).count))
    }
}
