import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache lifetime counters")
struct DiskCacheCounterTests {
    @Test("Hits and misses persisted by one instance are reported by the next, and add up")
    func countersOutliveTheInstance() throws {
        // Given an entry and a cache that hit it twice and missed once
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let key = "https://example.test/a.png"
        let metadata = CacheEntryMetadata(key: key, storedAt: clock.now)
        let first = try DiskCache(directory: directory.url, configuration: clock.configuration())
        try first.store(Data(repeating: 7, count: 512), metadata: metadata, forKey: key)
        _ = first.entry(forKey: key)
        _ = first.entry(forKey: key)
        _ = first.entry(forKey: "https://example.test/missing.png")

        // When it persists its counters, twice (the second adds nothing)
        try first.persistCounters()
        try first.persistCounters()

        // Then a new instance (a new process, for the directory) reports them
        let second = try DiskCache(directory: directory.url, configuration: clock.configuration())
        #expect(second.statistics().hits == 2)
        #expect(second.statistics().misses == 1)

        // And its own activity adds to them, before and after it persists
        _ = second.entry(forKey: key)
        #expect(second.statistics().hits == 3)
        try second.persistCounters()
        let third = try DiskCache(directory: directory.url, configuration: clock.configuration())
        #expect(third.statistics().hits == 3)
        #expect(third.statistics().misses == 1)
    }

    @Test("Persisting counters keeps the size ledger intact")
    func ledgerSurvives() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let key = "k"
        try cache.store(Data(count: 1000), metadata: CacheEntryMetadata(key: key, storedAt: clock.now), forKey: key)
        let lockFile = directory.url.appendingPathComponent(".lock")
        let ledgerBefore = try Data(contentsOf: lockFile).prefix(SizeLedger.size)
        _ = cache.entry(forKey: key)
        try cache.persistCounters()
        let contents = try Data(contentsOf: lockFile)
        #expect(contents.prefix(SizeLedger.size) == ledgerBefore)
        #expect(LifetimeCounters.decode(contents.dropFirst(LifetimeCounters.offset)) == LifetimeCounters(hits: 1, misses: 0, writes: 1))
    }

    @Test("Writes and corrupt removals persisted by one instance are reported by the next, and add up")
    func writesOutliveTheInstance() throws {
        // Given a cache that stored three entries, rewrote one's metadata, and found one corrupt
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let first = try DiskCache(directory: directory.url, configuration: clock.configuration())
        for key in ["a", "b", "c"] {
            try first.store(Data(repeating: 1, count: 300), metadata: CacheEntryMetadata(key: key, storedAt: clock.now), forKey: key)
        }
        try first.updateMetadata(forKey: "a") { $0.etag = "\"2\"" }
        try EntryFiles.truncate("c", in: directory.url, to: 10)
        #expect(first.entry(forKey: "c") == nil)
        #expect(first.statistics().writes == 4)
        #expect(first.statistics().corruptEntriesRemoved == 1)

        // When it persists its counters, twice (the second adds nothing)
        try first.persistCounters()
        try first.persistCounters()

        // Then a new instance (a new process, for the directory) reports them
        let second = try DiskCache(directory: directory.url, configuration: clock.configuration())
        #expect(second.statistics().writes == 4)
        #expect(second.statistics().corruptEntriesRemoved == 1)

        // And its own writes add to them, before and after it persists
        try second.store(Data(count: 10), metadata: CacheEntryMetadata(key: "d", storedAt: clock.now), forKey: "d")
        #expect(second.statistics().writes == 5)
        try second.persistCounters()
        let third = try DiskCache(directory: directory.url, configuration: clock.configuration())
        #expect(third.statistics().writes == 5)
        #expect(third.statistics().corruptEntriesRemoved == 1)
        #expect(third.statistics().hits == 0)
    }

    @Test("A lock file written before writes were counted reads as zero writes, its hits kept")
    func olderLockFile() throws {
        // Given a lock file with only the ledger and the hit/miss record
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        _ = try DiskCache(directory: directory.url, configuration: clock.configuration())
        var old = SizeLedger(bytes: 0, entries: 0).encoded()
        old.append(LockFileRecord.encode(magic: Array("PFHC".utf8), [7, 3]))
        try old.write(to: directory.url.appendingPathComponent(".lock"))

        // When a cache opens it
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())

        // Then the old counters stand and the new ones start at zero
        #expect(cache.statistics().hits == 7)
        #expect(cache.statistics().misses == 3)
        #expect(cache.statistics().writes == 0)
    }
}
