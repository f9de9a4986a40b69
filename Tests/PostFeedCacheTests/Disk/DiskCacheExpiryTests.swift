import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache expiry and prune")
struct DiskCacheExpiryTests {
    @Test("Entries stored without expiresAt get storedAt + 7 days")
    func defaultTTL() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        try cache.store(Data("x".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: clock.now), forKey: "k")
        let entry = try #require(cache.entry(forKey: "k"))
        #expect(entry.metadata.expiresAt == clock.now.addingTimeInterval(7 * 24 * 3600))
    }

    @Test("An expired entry is still returned; isExpired tells the caller to revalidate")
    func expiredStillReturned() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let expiresAt = clock.now.addingTimeInterval(60)
        try cache.store(Data("x".utf8), metadata: CacheEntryMetadata(key: "k", expiresAt: expiresAt, storedAt: clock.now), forKey: "k")

        #expect(cache.entry(forKey: "k")?.isExpired(at: clock.now) == false)
        clock.advance(seconds: 59.9)
        #expect(cache.entry(forKey: "k")?.isExpired(at: clock.now) == false)
        clock.advance(seconds: 0.1)
        let entry = try #require(cache.entry(forKey: "k"))
        #expect(entry.isExpired(at: clock.now))
    }

    @Test("prune removes entries past expiry plus the grace period, and only those")
    func pruneExpired() throws {
        // Given a fresh entry, one expired an hour ago, and one expired two days ago
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let now = clock.now
        func store(_ key: String, expiresIn seconds: TimeInterval) throws {
            try cache.store(Data(repeating: 1, count: 1000),
                            metadata: CacheEntryMetadata(key: key, expiresAt: now.addingTimeInterval(seconds), storedAt: now.addingTimeInterval(-3 * 86_400)),
                            forKey: key)
        }
        try store("fresh", expiresIn: 3600)
        try store("stale", expiresIn: -3600)
        try store("dead", expiresIn: -2 * 86_400)
        let deadSize = try EntryFiles.bytes(of: "dead", in: directory.url).count

        // When pruning
        let report = cache.prune()

        // Then only the one past its grace day is gone
        #expect(report.expiredEntriesRemoved == 1)
        #expect(report.bytesFreed == deadSize)
        #expect(report.remainingEntries == 2)
        #expect(report.remainingBytes == EntryFiles.totalBytes(in: directory.url))
        #expect(cache.entry(forKey: "dead") == nil)
        #expect(cache.entry(forKey: "stale") != nil)
        #expect(cache.entry(forKey: "fresh") != nil)

        // And a day later the stale one goes too
        clock.advance(seconds: 86_400)
        #expect(cache.prune().expiredEntriesRemoved == 1)
        #expect(cache.entry(forKey: "stale") == nil)
    }

    @Test("prune sweeps temporary files older than ten minutes and keeps younger ones")
    func pruneSweepsStaleTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        try cache.store(Data("x".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: clock.now), forKey: "k")
        let folder = EntryFiles.path(of: "k", in: directory.url).deletingLastPathComponent()
        let crashed = folder.appendingPathComponent(".deadbeef.123.abc.tmp")
        let inFlight = folder.appendingPathComponent(".cafe.456.def.tmp")
        let crashedDownload = cache.temporaryDirectory.appendingPathComponent("download-crashed")
        for url in [crashed, inFlight, crashedDownload] { try Data("partial".utf8).write(to: url) }
        try EntryFiles.setModificationDate(clock.now.addingTimeInterval(-601), of: crashed)
        try EntryFiles.setModificationDate(clock.now.addingTimeInterval(-3600), of: crashedDownload)
        try EntryFiles.setModificationDate(clock.now.addingTimeInterval(-60), of: inFlight)
        #expect(cache.statistics().temporaryFiles == 3)

        let report = cache.prune()

        #expect(report.temporaryFilesRemoved == 2)
        #expect(!FileManager.default.fileExists(atPath: crashed.path))
        #expect(!FileManager.default.fileExists(atPath: crashedDownload.path))
        #expect(FileManager.default.fileExists(atPath: inFlight.path))
        #expect(cache.entry(forKey: "k") != nil)
    }

    @Test("Opening a cache sweeps stale abandoned downloads and leaves fresh ones")
    func openingSweepsStaleDownloads() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let first = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let abandoned = first.temporaryDirectory.appendingPathComponent("download-abandoned")
        let streaming = first.temporaryDirectory.appendingPathComponent("download-streaming")
        for url in [abandoned, streaming] { try Data("partial".utf8).write(to: url) }
        try EntryFiles.setModificationDate(clock.now.addingTimeInterval(-3600), of: abandoned)
        try EntryFiles.setModificationDate(clock.now.addingTimeInterval(-5), of: streaming)

        _ = try DiskCache(directory: directory.url, configuration: clock.configuration())

        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: streaming.path))
    }

    @Test("prune applies a lowered size limit now")
    func pruneAppliesSizeLimit() throws {
        // Given ten 1 kB entries written under a generous limit
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let generous = try DiskCache(directory: directory.url, configuration: clock.configuration())
        for index in 0..<10 {
            try generous.store(Data(count: 1000), metadata: CacheEntryMetadata(key: "k\(index)", storedAt: clock.now), forKey: "k\(index)")
            clock.advance(seconds: 1)
        }
        let total = EntryFiles.totalBytes(in: directory.url)

        // When a cache with a limit of half that prunes
        let strict = try DiskCache(directory: directory.url,
                                   configuration: clock.configuration(sizeLimit: total / 2, lowWaterRatio: 0.8))
        let report = strict.prune()

        // Then the oldest entries went until the low-water mark holds
        #expect(report.entriesEvictedForSize == 6)
        #expect(report.remainingEntries == 4)
        #expect(EntryFiles.totalBytes(in: directory.url) <= Int(Double(total / 2) * 0.8))
        #expect(strict.entry(forKey: "k9") != nil)
        #expect(strict.entry(forKey: "k5") == nil)
    }
}
