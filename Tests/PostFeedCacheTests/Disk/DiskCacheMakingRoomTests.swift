import Foundation
import Testing
@testable import PostFeedCache

/// `evictLeastRecentlyUsed(freeing:)`: the cache gives way when another write of the
/// tool's (the list state) finds the disk full.
@Suite("DiskCache making room")
struct DiskCacheMakingRoomTests {
    typealias Limits = DiskCacheSizeLimitTests

    /// k00…k09 stored a second apart, then k00 read: last use order k01…k09, k00.
    private func tenEntries(_ directory: TemporaryDirectory) throws -> DiskCache {
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        for index in 0..<10 {
            try Limits.store(Limits.key(index), in: cache)
            clock.advance(seconds: 1)
        }
        #expect(cache.entry(forKey: "k00") != nil)
        return cache
    }

    @Test("Least recently used entries go first, until the bytes asked for are freed")
    func evictsInLRUOrder() throws {
        // Given ten entries of one size
        let size = try Limits.entrySize()
        let directory = try TemporaryDirectory()
        let cache = try tenEntries(directory)

        // When room for two and a half entries is asked for
        let freed = cache.evictLeastRecentlyUsed(freeing: 2 * size + size / 2)

        // Then the three least recently used are gone, k00 (read last) kept
        #expect(freed == 3 * size)
        let all = (0..<10).map(Limits.key)
        #expect(Limits.keys(in: cache, among: all) == Set(["k00"] + (4..<10).map(Limits.key)))
        // And the ledger agrees with the directory
        #expect(cache.statistics().entryCount == 7)
        #expect(cache.statistics().totalBytes == 7 * size)
        let ledger = try #require(SizeLedger.decode(Data(contentsOf: directory.url.appendingPathComponent(".lock"))))
        #expect(ledger == SizeLedger(bytes: Int64(7 * size), entries: 7))
    }

    @Test("Asking for more than the cache holds empties it and says how much it freed")
    func evictsEverything() throws {
        let size = try Limits.entrySize()
        let directory = try TemporaryDirectory()
        let cache = try tenEntries(directory)

        #expect(cache.evictLeastRecentlyUsed(freeing: 1 << 30) == 10 * size)
        #expect(EntryFiles.entryFiles(in: directory.url).isEmpty)
        #expect(cache.evictLeastRecentlyUsed(freeing: 1) == 0)
    }

    @Test("Asking for nothing removes nothing")
    func nothingAsked() throws {
        let directory = try TemporaryDirectory()
        let cache = try tenEntries(directory)
        #expect(cache.evictLeastRecentlyUsed(freeing: 0) == 0)
        #expect(EntryFiles.entryFiles(in: directory.url).count == 10)
    }
}
