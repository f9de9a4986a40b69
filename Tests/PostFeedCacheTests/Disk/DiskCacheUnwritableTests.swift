import Foundation
import Synchronization
import Testing
@testable import PostFeedCache

/// Tests run as root, for whom `chmod 0555` forbids nothing. What really refuses writes
/// here: a path whose parent is a regular file (`ENOTDIR`, whatever the privileges), and
/// `RLIMIT_FSIZE` in a child process (`EFBIG`, the kernel's own "no room", also for root).
@Suite("DiskCache on a disk that refuses writes", .serialized)
struct DiskCacheUnwritableTests {
    final class Warnings: Sendable {
        let messages = Mutex<[String]>([])
        var handler: @Sendable (DiskCacheError) -> Void {
            { [self] error in self.messages.withLock { $0.append(error.description) } }
        }
        var count: Int { messages.withLock { $0.count } }
    }

    @Test("A cache directory under a regular file cannot be opened: a typed error naming it")
    func directoryUnderAFile() throws {
        let root = try TemporaryDirectory()
        let file = root.appending("not-a-folder")
        try Data("x".utf8).write(to: file)
        let directory = file.appendingPathComponent("ImageCache")

        let error = try #require(throws: DiskCacheError.self) {
            _ = try DiskCache(directory: directory, configuration: .init(warningHandler: { _ in }))
        }
        #expect(error.code == .directoryUnavailable)
        #expect(error.description.contains(file.path))
    }

    @Test("When the directory stops accepting writes: one throw, one warning, then quiet skips; reads go on; writes resume later")
    func directoryTurnsUnwritable() throws {
        // Given a working cache with one entry
        let root = try TemporaryDirectory()
        let directory = root.appending("ImageCache")
        let clock = ManualDate()
        let warnings = Warnings()
        let cache = try DiskCache(directory: directory, configuration: clock.configuration(warningHandler: warnings.handler))
        try cache.store(Data("kept".utf8), metadata: CacheEntryMetadata(key: "a", storedAt: clock.now), forKey: "a")

        // When its directory is replaced by a regular file (nothing can be created below it)
        let aside = root.appending("aside")
        try FileManager.default.moveItem(at: directory, to: aside)
        try Data("blocker".utf8).write(to: directory)

        // Then the first store throws notWritable naming the entry, and warns once
        let error = try #require(throws: DiskCacheError.self) {
            try cache.store(Data("b".utf8), metadata: CacheEntryMetadata(key: "b", storedAt: clock.now), forKey: "b")
        }
        #expect(error.code == .notWritable)
        #expect(error.description.contains("b") && error.description.contains(directory.path))
        #expect(!cache.isWritable)
        #expect(warnings.count == 1)

        // And later writes are skipped quietly, reads miss without crashing
        try cache.store(Data("c".utf8), metadata: CacheEntryMetadata(key: "c", storedAt: clock.now), forKey: "c")
        try cache.updateMetadata(forKey: "a") { $0.etag = "x" }
        #expect(cache.entry(forKey: "a") == nil)
        cache.removeEntry(forKey: "a")
        #expect(cache.prune().remainingEntries == 0)
        #expect(cache.statistics().skippedWrites == 2)
        #expect(warnings.count == 1)

        // When the disk comes back and the retry interval passes
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.moveItem(at: aside, to: directory)
        clock.advance(seconds: 61)

        // Then writes resume and everything is readable
        try cache.store(Data("d".utf8), metadata: CacheEntryMetadata(key: "d", storedAt: clock.now), forKey: "d")
        #expect(cache.isWritable)
        #expect(cache.entry(forKey: "d")?.data == Data("d".utf8))
        #expect(cache.entry(forKey: "a")?.data == Data("kept".utf8))
    }

    @Test("A directory that exists but refuses writes opens read-only with one warning, serving what it holds")
    func opensReadOnly() throws {
        // Given a cache directory with an entry, whose temporary folder cannot be made (a file blocks it)
        let root = try TemporaryDirectory()
        let directory = root.appending("PageCache")
        let writer = try DiskCache(directory: directory, configuration: ManualDate().configuration())
        try writer.store(Data("page".utf8), metadata: CacheEntryMetadata(key: "p", storedAt: Date()), forKey: "p")
        try FileManager.default.removeItem(at: writer.temporaryDirectory)
        try Data("blocker".utf8).write(to: writer.temporaryDirectory)

        // When another cache opens it
        let warnings = Warnings()
        let reader = try DiskCache(directory: directory, configuration: ManualDate().configuration(warningHandler: warnings.handler))

        // Then it is read-only, warned once, and still serves the entry
        #expect(!reader.isWritable)
        #expect(warnings.count == 1)
        #expect(reader.entry(forKey: "p")?.data == Data("page".utf8))
        try reader.store(Data("q".utf8), metadata: CacheEntryMetadata(key: "q", storedAt: Date()), forKey: "q")
        #expect(reader.statistics().skippedWrites == 1)
    }

    struct FullDiskSummary: Decodable, Sendable {
        var smallStored: Bool
        var firstLargeError: String
        var firstLargeMessage: String?
        var secondLargeThrew: Bool
        var isWritable: Bool
        var smallReadable: Bool
        var largeVisible: Bool
        var skippedWrites: Int
        var temporaryFiles: Int
        var warnings: [String]
    }

    @Test("A full disk (file size limit in a child process): diskFull once, no partial entry, no crash", .timeLimit(.minutes(2)))
    func fullDisk() async throws {
        let directory = try TemporaryDirectory()
        let summary = try await StressProcess.runForSummary(["full-disk", directory.appending("ImageCache").path],
                                                            as: FullDiskSummary.self)
        #expect(summary.smallStored)
        #expect(summary.firstLargeError == "diskFull")
        #expect(summary.firstLargeMessage?.contains("large") == true)
        #expect(summary.secondLargeThrew == false)
        #expect(summary.isWritable == false)
        #expect(summary.smallReadable)
        #expect(summary.largeVisible == false)
        #expect(summary.skippedWrites == 1)
        #expect(summary.temporaryFiles == 0, "the failed write left its temporary file behind")
        #expect(summary.warnings.count == 1)
        // and what it left on disk verifies
        let cache = try DiskCache(directory: directory.appending("ImageCache"), configuration: .init(warningHandler: { _ in }))
        #expect(cache.verify() == DiskCache.VerificationReport(checkedEntries: 1, validEntries: 1,
                                                               validBytes: cache.statistics().totalBytes, problems: []))
    }
}
