import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache size limit")
struct DiskCacheSizeLimitTests {
    static let body = Data(repeating: 7, count: 10_000)
    static let storedAt = Date(timeIntervalSince1970: 1_750_000_000)

    /// `k00`…`k99`: keys of one length, so every entry file has the same size.
    static func key(_ index: Int) -> String { index < 10 ? "k0\(index)" : "k\(index)" }

    /// The file size of one entry for a three-character key: all equal.
    static func entrySize() throws -> Int {
        let scratch = try TemporaryDirectory()
        let cache = try DiskCache(directory: scratch.url, configuration: ManualDate().configuration())
        try cache.store(body, metadata: CacheEntryMetadata(key: "k00", storedAt: storedAt), forKey: "k00")
        return try EntryFiles.bytes(of: "k00", in: scratch.url).count
    }

    static func store(_ key: String, in cache: DiskCache) throws {
        try cache.store(body, metadata: CacheEntryMetadata(key: key, storedAt: storedAt), forKey: key)
    }

    static func keys(in cache: DiskCache, among candidates: [String]) -> Set<String> {
        Set(candidates.filter { cache.entry(forKey: $0) != nil })
    }

    @Test("The write that crosses the limit trims least recently used entries to the low-water mark")
    func trimToLowWaterInLRUOrder() throws {
        // Given room for exactly ten entries, a low-water mark of five, and k00…k09 stored a second apart
        let size = try Self.entrySize()
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url,
                                  configuration: clock.configuration(sizeLimit: 10 * size, lowWaterRatio: 0.5))
        for index in 0..<10 {
            try Self.store(Self.key(index), in: cache)
            clock.advance(seconds: 1)
        }
        #expect(EntryFiles.entryFiles(in: directory.url).count == 10)  // at the limit: no trim yet

        // When k00 and k01 are read (refreshing their last use) and an eleventh entry is stored
        #expect(cache.entry(forKey: "k00") != nil)
        clock.advance(seconds: 1)
        #expect(cache.entry(forKey: "k01") != nil)
        clock.advance(seconds: 1)
        try Self.store("k10", in: cache)

        // Then the oldest by last use (k02…k07) are gone and five entries remain
        let all = (0...10).map(Self.key)
        #expect(EntryFiles.entryFiles(in: directory.url).count == 5)
        #expect(EntryFiles.totalBytes(in: directory.url) <= 5 * size)
        let remaining = EntryFiles.entryFiles(in: directory.url).map(\.lastPathComponent)
        let expected = ["k00", "k01", "k08", "k09", "k10"].map { EntryFiles.path(of: $0, in: directory.url).lastPathComponent }
        #expect(Set(remaining) == Set(expected))
        #expect(Self.keys(in: cache, among: all) == ["k00", "k01", "k08", "k09", "k10"])
    }

    @Test("Reads refresh last use only once per access-time resolution")
    func accessResolutionThrottlesTouches() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration(accessTimeResolution: .seconds(60)))
        try Self.store("k", in: cache)
        let path = EntryFiles.path(of: "k", in: directory.url).path
        let written = try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(abs(written.timeIntervalSince(clock.now)) < 0.001)  // last use = the injected clock

        clock.advance(seconds: 30)
        _ = cache.entry(forKey: "k")
        let afterShortWait = try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(afterShortWait == written)

        clock.advance(seconds: 31)
        _ = cache.entry(forKey: "k")
        let afterLongWait = try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(abs(afterLongWait.timeIntervalSince(clock.now)) < 0.001)
    }

    @Test("Two caches on one directory share the size accounting")
    func sharedLedgerAcrossInstances() throws {
        // Given two instances (as two processes would have) with room for ten entries
        let size = try Self.entrySize()
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let configuration = clock.configuration(sizeLimit: 10 * size, lowWaterRatio: 0.5)
        let first = try DiskCache(directory: directory.url, configuration: configuration)
        let second = try DiskCache(directory: directory.url, configuration: configuration)

        // When the first stores six and the second five
        for index in 0..<6 { try Self.store("a0\(index)", in: first); clock.advance(seconds: 1) }
        for index in 0..<4 { try Self.store("b0\(index)", in: second); clock.advance(seconds: 1) }
        #expect(EntryFiles.entryFiles(in: directory.url).count == 10)
        try Self.store("b04", in: second)

        // Then the second's write saw the first's bytes and trimmed the directory
        #expect(EntryFiles.totalBytes(in: directory.url) <= 5 * size)
        #expect(EntryFiles.entryFiles(in: directory.url).count == 5)
        #expect(second.entry(forKey: "b04") != nil)
        #expect(first.entry(forKey: "a00") == nil)
    }

    @Test("A ledger left too high by files deleted underneath heals at the next trim without evicting")
    func ledgerDriftHeals() throws {
        let size = try Self.entrySize()
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration(sizeLimit: 10 * size))
        for index in 0..<9 { try Self.store(Self.key(index), in: cache) }
        for index in 0..<5 { try FileManager.default.removeItem(at: EntryFiles.path(of: Self.key(index), in: directory.url)) }

        // When two more writes push the stale ledger past the limit
        try Self.store(Self.key(9), in: cache)
        try Self.store(Self.key(10), in: cache)

        // Then the recount finds 6 entries under the limit: nothing evicted, ledger corrected
        #expect(EntryFiles.entryFiles(in: directory.url).count == 6)
        let ledger = try #require(SizeLedger.decode(try Data(contentsOf: directory.appending(".lock"))))
        #expect(ledger == SizeLedger(bytes: Int64(6 * size), entries: 6))
    }

    @Test("An entry larger than the low-water mark is refused with a typed error")
    func entryTooLarge() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration(sizeLimit: 100_000))
        let error = try #require(throws: DiskCacheError.self) {
            try cache.store(Data(count: 80_000), metadata: CacheEntryMetadata(key: "big", storedAt: Date()), forKey: "big")
        }
        #expect(error.code == .entryTooLarge)
        #expect(error.description.contains("big"))
        #expect(cache.isWritable)
        #expect(EntryFiles.entryFiles(in: directory.url).isEmpty)

        let download = cache.temporaryDirectory.appendingPathComponent("big")
        try Data(count: 80_000).write(to: download)
        #expect(throws: DiskCacheError.self) {
            try cache.storeFile(at: download, metadata: CacheEntryMetadata(key: "big", storedAt: Date()), forKey: "big")
        }
        #expect(!FileManager.default.fileExists(atPath: download.path))  // owned and deleted on failure
    }
}
