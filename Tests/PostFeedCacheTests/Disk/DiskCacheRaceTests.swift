import Foundation
import Testing
@testable import PostFeedCache

/// The interleavings the multi-process test hits only by chance, made to happen on purpose.
@Suite("DiskCache races")
struct DiskCacheRaceTests {
    @Test("A reader that found a corrupt file does not delete the valid entry renamed over it meanwhile")
    func corruptRemovalSparesReplacement() throws {
        // Given a corrupt file at the entry's path, as a reader saw it
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        try EntryFiles.write(Data("garbage".utf8), for: "k", in: directory.url)
        let path = EntryFiles.path(of: "k", in: directory.url).path
        let seen = try #require(FileSystem.status(path).map(FileIdentity.init))

        // When another writer renames a valid entry into place before the reader removes "its" file
        let other = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        try other.store(Data("valid".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        cache.removeCorruptEntry(named: CacheLayout.name(forKey: "k"), identity: seen)

        // Then the valid entry survives
        #expect(cache.entry(forKey: "k")?.data == Data("valid".utf8))
        #expect(cache.statistics().corruptEntriesRemoved == 0)
    }

    @Test("updateMetadata never writes an old body over a newer store: it rereads and reapplies")
    func updateMetadataIsCompareAndSwap() throws {
        // Given an entry with body "old"
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let other = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        try cache.store(Data("old".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")

        // When another writer stores body "new" while the update is between its read and its commit
        var calls = 0
        try cache.updateMetadata(forKey: "k") { metadata in
            calls += 1
            if calls == 1 {
                try? other.store(Data("new".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
            }
            metadata.etag = "\"refreshed\""
        }

        // Then the newer body is kept, with the update applied to it
        let entry = try #require(cache.entry(forKey: "k"))
        #expect(entry.data == Data("new".utf8))
        #expect(entry.metadata.etag == "\"refreshed\"")
        #expect(calls == 2)
        #expect(cache.verify().isClean)
    }

    @Test("A trim never removes the entry whose write triggered it")
    func trimSparesTheNewEntry() throws {
        // Given a limit that one old entry nearly fills, and a new entry written with a clock
        // set back so that its last use looks the oldest
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration(sizeLimit: 10_000, lowWaterRatio: 0.8))
        try cache.store(Data(count: 5000), metadata: CacheEntryMetadata(key: "old", storedAt: clock.now), forKey: "old")
        clock.advance(seconds: -3600)

        // When the new entry takes the total past the limit
        try cache.store(Data(count: 6000), metadata: CacheEntryMetadata(key: "new", storedAt: clock.now), forKey: "new")

        // Then the old one is evicted and the new one kept
        #expect(cache.entry(forKey: "new") != nil)
        #expect(cache.entry(forKey: "old") == nil)
    }
}
