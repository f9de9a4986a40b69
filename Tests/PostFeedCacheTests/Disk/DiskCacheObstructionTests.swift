import Foundation
import Testing
@testable import PostFeedCache

/// Things in the way of entries — a directory where an entry file belongs, a file where a
/// fan-out folder or the temporary folder belongs — are seen by maintenance: `verify`
/// reports them, `prune` and `clear` remove them, and the cache works again afterwards.
@Suite("DiskCache obstructions")
struct DiskCacheObstructionTests {
    static let key = "https://example.test/images/1.jpg"

    /// A cache with one entry, then the three obstructions made by hand.
    static func obstructed(_ directory: TemporaryDirectory) throws -> DiskCache {
        let cache = try DiskCache(directory: directory.url)
        try cache.store(Data("body".utf8), metadata: CacheEntryMetadata(key: key, storedAt: Date()), forKey: key)
        let entry = EntryFiles.path(of: key, in: directory.url)
        let manager = FileManager.default
        // The entry replaced by a directory
        try manager.removeItem(at: entry)
        try manager.createDirectory(at: entry.appendingPathComponent("inside"), withIntermediateDirectories: true)
        // A fan-out folder replaced by a file (one the entry does not use)
        let folder = entry.deletingLastPathComponent().lastPathComponent == "ab" ? "cd" : "ab"
        try? manager.removeItem(at: directory.url.appendingPathComponent(folder))
        try Data("x".utf8).write(to: directory.url.appendingPathComponent(folder))
        // The temporary folder replaced by a file
        try? manager.removeItem(at: directory.url.appendingPathComponent(".tmp"))
        try Data("x".utf8).write(to: directory.url.appendingPathComponent(".tmp"))
        return cache
    }

    static func expectClear(_ directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let entry = EntryFiles.path(of: key, in: directory.url)
        var isDirectory: ObjCBool = false
        #expect(!FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(".tmp").path, isDirectory: &isDirectory)
            || isDirectory.boolValue, sourceLocation: sourceLocation)
        // A new cache on the folder stores and reads the key again
        let again = try DiskCache(directory: directory.url)
        try again.store(Data("again".utf8), metadata: CacheEntryMetadata(key: key, storedAt: Date()), forKey: key)
        #expect(again.entry(forKey: key)?.data == Data("again".utf8), sourceLocation: sourceLocation)
    }

    @Test("verify reports each thing in the way and removes it")
    func verify() throws {
        let directory = try TemporaryDirectory()
        let report = try Self.obstructed(directory).verify()
        let reasons = report.problems.map(\.reason)
        #expect(report.problems.count == 3, "\(reasons)")
        let namesTheEntryFile = reasons.contains { $0.contains("where an entry file belongs") }
        #expect(namesTheEntryFile, "\(reasons)")
        let namesTheFanOutFolder = reasons.contains { $0.contains("fan-out folder") }
        #expect(namesTheFanOutFolder, "\(reasons)")
        let namesTheTemporaryFolder = reasons.contains { $0.contains("temporary folder") }
        #expect(namesTheTemporaryFolder, "\(reasons)")
        let allRemoved = report.problems.allSatisfy { $0.removed }
        #expect(allRemoved, "\(report.problems)")
        try Self.expectClear(directory)
    }

    @Test("prune removes and counts them")
    func prune() throws {
        let directory = try TemporaryDirectory()
        let report = try Self.obstructed(directory).prune()
        #expect(report.obstructionsRemoved == 3)
        try Self.expectClear(directory)
    }

    @Test("clear removes them with the entries")
    func clear() throws {
        let directory = try TemporaryDirectory()
        try Self.obstructed(directory).removeAll()
        try Self.expectClear(directory)
    }
}
