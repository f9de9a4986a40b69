import Foundation
import Testing
@testable import PostFeedCache

/// Issue 29, item 1: a symbolic link planted anywhere in a cache folder — the folder
/// itself, `.tmp`, `.lock`, a fan-out folder, an entry, a temporary file — is never
/// followed. Every operation refuses it with one line naming it ("… is a symbolic link;
/// refused") or treats it as a thing in the way, and nothing outside the cache is read,
/// written, created or removed. Each test is run for a link to a file outside, a dangling
/// link and a link to a folder outside.
@Suite("DiskCache and symbolic links")
struct DiskCacheSymbolicLinkTests {
    static let key = "https://example.test/images/1.jpg"
    static let body = Data("entry body".utf8)

    static func metadata() -> CacheEntryMetadata { CacheEntryMetadata(key: key, storedAt: Date()) }

    /// A cache in `fixture.cacheDirectory` holding `key`, with warnings kept quiet.
    static func cacheWithEntry(_ fixture: LinkFixture) throws -> DiskCache {
        let cache = try DiskCache(directory: fixture.cacheDirectory, configuration: .init(warningHandler: { _ in }))
        try cache.store(body, metadata: metadata(), forKey: key)
        return cache
    }

    static func reopen(_ fixture: LinkFixture) throws -> DiskCache {
        try DiskCache(directory: fixture.cacheDirectory, configuration: .init(warningHandler: { _ in }))
    }

    /// What `body` throws, as its one-line description; "no error" when it returns.
    static func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// The error `open` throws, as one line.
    static func openingError(_ fixture: LinkFixture) -> String? {
        do {
            _ = try reopen(fixture)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: The cache's own folder and files

    @Test("a linked cache folder is refused when the cache opens", arguments: LinkKind.allCases)
    func cacheFolder(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        try fixture.plantLink(kind, at: fixture.cacheDirectory)
        let failure = Self.openingError(fixture)
        fixture.expectOutsideUntouched("open")
        let message = try #require(failure)
        expectRefusal(message, naming: fixture.cacheDirectory)
    }

    @Test("a linked .tmp is refused when the cache opens; the stale-download sweep never looks through it",
          arguments: LinkKind.allCases)
    func temporaryFolder(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        _ = try Self.cacheWithEntry(fixture)
        let temporary = fixture.cacheDirectory.appendingPathComponent(".tmp")
        try fixture.plantLink(kind, at: temporary)
        let failure = Self.openingError(fixture)
        fixture.expectOutsideUntouched("open (sweep)")
        #expect(LinkFixture.isLink(temporary))
        let message = try #require(failure)
        expectRefusal(message, naming: temporary)
    }

    @Test("a linked .lock is refused when the cache opens: no ledger written through it, no file created",
          arguments: LinkKind.allCases)
    func lockFile(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        _ = try Self.cacheWithEntry(fixture)
        let lock = fixture.cacheDirectory.appendingPathComponent(".lock")
        try fixture.plantLink(kind, at: lock)
        let failure = Self.openingError(fixture)
        fixture.expectOutsideUntouched("open")
        let message = try #require(failure)
        expectRefusal(message, naming: lock)
    }

    @Test("a .lock linked while the cache is open: writes, counters, ledger and stats refuse it",
          arguments: LinkKind.allCases)
    func lockFileAfterOpening(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        _ = cache.entry(forKey: Self.key)
        let lock = fixture.cacheDirectory.appendingPathComponent(".lock")
        try fixture.plantLink(kind, at: lock)

        let storeError = Self.failure {
            try cache.store(Data("other".utf8), metadata: CacheEntryMetadata(key: "other", storedAt: Date()), forKey: "other")
        }
        expectRefusal(storeError, naming: lock)
        fixture.expectOutsideUntouched("store")
        let persistError = Self.failure { try cache.persistCounters() }
        expectRefusal(persistError, naming: lock)
        fixture.expectOutsideUntouched("persistCounters")
        #expect(cache.recordedTotalBytes() == nil)
        _ = cache.statistics()
        cache.removeEntry(forKey: Self.key)
        _ = cache.prune()
        _ = cache.evictLeastRecentlyUsed(freeing: 1 << 20)
        let cleared = (try? cache.removeAll()) != nil
        #expect(!cleared)
        fixture.expectOutsideUntouched("stats, remove, prune, evict, clear")
        #expect(LinkFixture.isLink(lock))
    }

    // MARK: Fan-out folders and entries

    /// The fan-out folder `key`'s entry lives in.
    static func fanOutFolder(_ fixture: LinkFixture) -> URL {
        EntryFiles.path(of: key, in: fixture.cacheDirectory).deletingLastPathComponent()
    }

    @Test("a linked fan-out folder: reads miss, writes refuse, nothing outside is read or touched",
          arguments: LinkKind.allCases)
    func fanOutFolderEverydayUse(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        let entry = EntryFiles.path(of: Self.key, in: fixture.cacheDirectory)
        let folder = Self.fanOutFolder(fixture)
        // A valid copy of the entry outside, where a followed link would find it.
        let copy = try Data(contentsOf: entry)
        try fixture.plantLink(kind, at: folder)
        let outsideCopy = fixture.outside.appendingPathComponent(entry.lastPathComponent)
        if kind == .toFolder { try copy.write(to: outsideCopy) }
        let fixtureWithCopy = try LinkFixture.Baseline(fixture)

        #expect(cache.entry(forKey: Self.key) == nil)
        #expect(cache.summary(forKey: Self.key) == nil)
        #expect(cache.fileURL(forKey: Self.key) == nil)
        fixtureWithCopy.expectUnchanged("read")

        let storeError = Self.failure {
            try cache.store(Self.body, metadata: Self.metadata(), forKey: Self.key)
        }
        expectRefusal(storeError, naming: folder)
        fixtureWithCopy.expectUnchanged("store")

        let updateError = Self.failure {
            try cache.updateMetadata(forKey: Self.key) { $0.etag = "x" }
        }
        #expect(updateError.contains(folder.path), "\(updateError)")
        cache.removeEntry(forKey: Self.key)
        fixtureWithCopy.expectUnchanged("update, remove")

        let statistics = cache.statistics()
        #expect(statistics.entryCount == 0)
        _ = cache.evictLeastRecentlyUsed(freeing: 1 << 30)
        fixtureWithCopy.expectUnchanged("stats, evict")
        #expect(LinkFixture.isLink(folder))
    }

    /// Maintenance that removes things in the way.
    enum Maintenance: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case verify, prune, clear
        var testDescription: String { rawValue }

        /// Runs it; returns the report's problem lines (verify) or nothing.
        func run(on cache: DiskCache) throws -> [String] {
            switch self {
            case .verify: return cache.verify().problems.map(\.description)
            case .prune: _ = cache.prune(); return []
            case .clear: try cache.removeAll(); return []
            }
        }
    }

    @Test("verify, prune and clear remove a linked fan-out folder's link, never what it points to",
          arguments: LinkKind.allCases, Maintenance.allCases)
    func fanOutFolderMaintenance(kind: LinkKind, maintenance: Maintenance) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        let folder = Self.fanOutFolder(fixture)
        try fixture.plantLink(kind, at: folder)

        let problems = try maintenance.run(on: cache)
        if maintenance == .verify {
            let named = problems.contains { $0.contains("\(folder.path): is a symbolic link; refused") }
            #expect(named, "\(problems)")
        }
        fixture.expectOutsideUntouched("\(maintenance)")
        #expect(!LinkFixture.isLink(folder))
        // The cache works again for that folder.
        try cache.store(Self.body, metadata: Self.metadata(), forKey: Self.key)
        #expect(cache.entry(forKey: Self.key)?.data == Self.body)
        fixture.expectOutsideUntouched("store after \(maintenance)")
    }

    @Test("a linked entry file: reads miss, writes refuse it, nothing outside is read or touched",
          arguments: LinkKind.allCases)
    func entryEverydayUse(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        let entry = EntryFiles.path(of: Self.key, in: fixture.cacheDirectory)
        let copy = try Data(contentsOf: entry)
        // The file outside holds a valid copy of the entry: a followed link would be a hit.
        if kind == .toFile { try copy.write(to: fixture.target(.toFile)) }
        let baseline = try LinkFixture.Baseline(fixture)
        try fixture.plantLink(kind, at: entry)

        #expect(cache.entry(forKey: Self.key) == nil)
        #expect(cache.summary(forKey: Self.key) == nil)
        #expect(cache.fileURL(forKey: Self.key) == nil)
        baseline.expectUnchanged("read")
        let storeError = Self.failure {
            try cache.store(Data("new".utf8), metadata: Self.metadata(), forKey: Self.key)
        }
        expectRefusal(storeError, naming: entry)
        cache.removeEntry(forKey: Self.key)
        #expect(cache.statistics().entryCount == 0)
        _ = cache.evictLeastRecentlyUsed(freeing: 1 << 30)
        baseline.expectUnchanged("store, remove, stats, evict")
        #expect(LinkFixture.isLink(entry))
    }

    @Test("verify, prune and clear remove a linked entry's link, never what it points to",
          arguments: LinkKind.allCases, Maintenance.allCases)
    func entryMaintenance(kind: LinkKind, maintenance: Maintenance) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        let entry = EntryFiles.path(of: Self.key, in: fixture.cacheDirectory)
        try fixture.plantLink(kind, at: entry)

        let problems = try maintenance.run(on: cache)
        if maintenance == .verify {
            let named = problems.contains { $0.contains("\(entry.path): is a symbolic link; refused") }
            #expect(named, "\(problems)")
        }
        fixture.expectOutsideUntouched("\(maintenance)")
        #expect(!LinkFixture.isLink(entry))
    }

    // MARK: Temporary files

    @Test("storeFile refuses a download that is a link, and never writes through it",
          arguments: LinkKind.allCases)
    func adoptingALink(kind: LinkKind) throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        let download = cache.temporaryDirectory.appendingPathComponent(".download-planted")
        try fixture.plantLink(kind, at: download)

        let error = Self.failure {
            try cache.storeFile(at: download, metadata: Self.metadata(), forKey: "adopted")
        }
        expectRefusal(error, naming: download)
        #expect(cache.entry(forKey: "adopted") == nil)
        fixture.expectOutsideUntouched("storeFile")
    }

    @Test("links among temporary files — in .tmp and beside entries — are never followed by sweeps",
          arguments: LinkKind.allCases, Maintenance.allCases)
    func temporaryFileLinks(kind: LinkKind, maintenance: Maintenance) throws {
        let fixture = try LinkFixture()
        _ = try Self.cacheWithEntry(fixture)
        let entry = EntryFiles.path(of: Self.key, in: fixture.cacheDirectory)
        let inTmp = fixture.cacheDirectory.appendingPathComponent(".tmp/.download-old")
        let besideEntry = entry.deletingLastPathComponent().appendingPathComponent(".\(entry.lastPathComponent).1.x.tmp")
        try fixture.plantLink(kind, at: inTmp)
        try fixture.plantLink(kind, at: besideEntry)

        // Opening sweeps .tmp; maintenance sweeps both.
        let cache = try Self.reopen(fixture)
        fixture.expectOutsideUntouched("open")
        _ = try maintenance.run(on: cache)
        _ = cache.evictLeastRecentlyUsed(freeing: 1 << 30)
        fixture.expectOutsideUntouched("\(maintenance), evict")
    }

    @Test("a cache on a healthy folder still works with links elsewhere in the tree")
    func unaffectedEntriesStillWork() throws {
        let fixture = try LinkFixture()
        let cache = try Self.cacheWithEntry(fixture)
        try fixture.plantLink(.toFolder, at: fixture.cacheDirectory.appendingPathComponent("zz"))
        try cache.store(Data("b".utf8), metadata: CacheEntryMetadata(key: "b", storedAt: Date()), forKey: "b")
        #expect(cache.entry(forKey: Self.key)?.data == Self.body)
        #expect(cache.entry(forKey: "b")?.data == Data("b".utf8))
        fixture.expectOutsideUntouched("store and read")
    }
}

extension LinkFixture {
    /// The outside folder as it is now (after a test put something there on purpose).
    struct Baseline {
        let fixture: LinkFixture
        let files: [String: Data]

        init(_ fixture: LinkFixture) throws {
            self.fixture = fixture
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: fixture.outside.path) {
                files[name] = (try? Data(contentsOf: fixture.outside.appendingPathComponent(name))) ?? Data()
            }
            self.files = files
        }

        func expectUnchanged(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let now = (try? Baseline(fixture))?.files ?? [:]
            #expect(now == files, "after \(step): outside changed", sourceLocation: sourceLocation)
            let created = FileManager.default.fileExists(atPath: fixture.target(.dangling).path)
            #expect(!created, "after \(step): the dangling link's target was created", sourceLocation: sourceLocation)
        }
    }
}
