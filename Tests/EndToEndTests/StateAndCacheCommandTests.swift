import Foundation
import PostFeedServer
import Testing

@Suite("postfeed state and cache")
struct StateAndCacheCommandTests {
    /// Runs `list --pages 2` and `page 2`: both state files, images and pages on disk.
    private func warm(_ sandbox: Sandbox, _ server: RunningFixtureServer) async throws {
        let list = try await sandbox.run(["list", "--pages", "2"], against: server)
        try #require(list.succeeded, "\(list)")
        let page = try await sandbox.run(["page", "2"], against: server)
        try #require(page.succeeded, "\(page)")
        try #require(FileManager.default.fileExists(atPath: sandbox.infiniteStateFile.path))
        try #require(FileManager.default.fileExists(atPath: sandbox.pagedStateFile.path))
    }

    @Test("state reset removes the state files and nothing else")
    func stateReset() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            try await warm(sandbox, server)
            let caches = sandbox.snapshot().filter { !$0.key.hasPrefix("State/") }
            try #require(!caches.isEmpty)

            // When
            let run = try await sandbox.run(["state", "reset"])

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines == ["list state removed"], "\(run)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.infiniteStateFile.path))
            #expect(!FileManager.default.fileExists(atPath: sandbox.pagedStateFile.path))
            let cachesAfter = sandbox.snapshot().filter { !$0.key.hasPrefix("State/") }
            #expect(cachesAfter == caches)

            // When: again
            let again = try await sandbox.run(["state", "reset"])

            // Then
            #expect(again.succeeded, "\(again)")
            #expect(again.outputLines == ["no saved state"], "\(again)")
        }
    }

    @Test("state reset --mode paged keeps the infinite state")
    func stateResetOneMode() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            try await warm(sandbox, server)
            let infinite = try Data(contentsOf: sandbox.infiniteStateFile)

            // When
            let run = try await sandbox.run(["state", "reset", "--mode", "paged"])

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.pagedStateFile.path))
            #expect(try Data(contentsOf: sandbox.infiniteStateFile) == infinite)

            // When: state show
            let shown = try await sandbox.run(["state", "show"])

            // Then
            #expect(shown.succeeded, "\(shown)")
            #expect(shown.standardOutput.contains("40 posts loaded in 2 pages of 247"), "\(shown)")
            #expect(shown.standardOutput.contains("paged: no saved state"), "\(shown)")
        }
    }

    @Test("state show words: one page, a page key only when it adds something, pages still to read")
    func stateShowWording() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given one page of the infinite feed, and paged mode at page 3
            for arguments in [["list", "--no-images"], ["page", "3", "--no-images"]] {
                let run = try await sandbox.run(arguments, against: server)
                try #require(run.succeeded, "\(run)")
            }

            // When
            let shown = try await sandbox.run(["state", "show"])

            // Then
            #expect(shown.standardOutput.contains("20 posts loaded in 1 page of 247;"), "\(shown)")
            #expect(shown.standardOutput.contains("  page 3 of 247 posts"), "\(shown)")

            // When: infinite mode takes over the place at page 3: its 20 loaded posts stay,
            // the pages up to the place are added, their posts not read yet
            let switched = try await sandbox.run(["mode", "infinite"], against: server)
            try #require(switched.succeeded, "\(switched)")
            let after = try await sandbox.run(["state", "show"])

            // Then
            #expect(after.standardOutput.contains("20 posts loaded in 1 page of 247, 2 more pages to read back from the page cache"), "\(after)")
        }
    }

    @Test("cache clear removes every image and page entry and never State/")
    func cacheClear() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            try await warm(sandbox, server)
            let state = sandbox.stateSnapshot()
            let images = sandbox.cacheEntries(in: sandbox.imageCacheDirectory).count
            let pages = sandbox.cacheEntries(in: sandbox.pageCacheDirectory).count
            try #require(images > 0 && pages > 0)

            // When
            let run = try await sandbox.run(["cache", "clear"])

            // Then
            #expect(run.succeeded, "\(run)")
            let said = "removed \(images) image\(images == 1 ? "" : "s"), \(pages) page\(pages == 1 ? "" : "s") and 0 thumbnails;"
            #expect(run.outputLines.first?.hasPrefix(said) == true, "\(run)")
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).isEmpty)
            #expect(sandbox.cacheEntries(in: sandbox.pageCacheDirectory).isEmpty)
            #expect(sandbox.stateSnapshot() == state)
        }
    }

    @Test("cache stats, verify and prune report on a healthy cache")
    func statsVerifyPrune() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            try await warm(sandbox, server)
            let images = sandbox.cacheEntries(in: sandbox.imageCacheDirectory).count

            // When
            let stats = try await sandbox.run(["cache", "stats", "--json"])

            // Then
            #expect(stats.succeeded, "\(stats)")
            let report = try StatsJSON.decode(stats.standardOutput, from: "cache stats --json")
            #expect(report.rootSource == "--cache-dir")
            #expect(URL(fileURLWithPath: report.root).standardizedFileURL.path == sandbox.cacheRoot.standardizedFileURL.path)
            let imageCache = report.caches.first { $0.name == "ImageCache" }
            let imageLayer = try #require(imageCache, "\(stats)")
            #expect(imageLayer.statistics.entryCount == images)
            #expect(imageLayer.statistics.totalBytes > 0)
            let pageCacheHasEntries = report.caches.contains { $0.name == "PageCache" && $0.statistics.entryCount > 0 }
            #expect(pageCacheHasEntries, "\(stats)")

            // When
            let verify = try await sandbox.run(["cache", "verify", "--json"])

            // Then
            #expect(verify.succeeded, "\(verify)")
            let verified = try [String: VerifyJSON].decode(verify.standardOutput, from: "cache verify --json")
            #expect(verified["ImageCache"]?.checkedEntries == images)
            #expect(verified["ImageCache"]?.validEntries == images)
            #expect(verified["ImageCache"]?.problems.isEmpty == true)
            #expect(verified["PageCache"]?.problems.isEmpty == true)

            // When
            let prune = try await sandbox.run(["cache", "prune"])

            // Then: nothing is expired or over the limit
            #expect(prune.succeeded, "\(prune)")
            #expect(prune.outputLines.count == 3, "images, pages, thumbnails: \(prune)")
            #expect(prune.outputLines.last?.hasPrefix("ThumbnailCache: removed 0 whose image is gone or changed, 0 expired") == true, "\(prune)")
            #expect(prune.outputLines.first?.hasPrefix("ImageCache: removed 0 expired, 0 for size, 0 corrupt") == true, "\(prune)")
            #expect(prune.standardOutput.contains("\(images) entries"), "\(prune)")
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).count == images)
        }
    }

    @Test("cache verify reports and removes a damaged image entry, with a failing status")
    func verifyFindsCorruption() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: two image entries with a byte flipped in their bodies
            try await warm(sandbox, server)
            let entries = sandbox.cacheEntries(in: sandbox.imageCacheDirectory)
            try #require(entries.count >= 2)
            let (first, second) = (entries[0], entries[1])
            for victim in [first, second] {
                var bytes = try Data(contentsOf: victim)
                try #require(bytes.count > 100)
                bytes[bytes.startIndex + 10] ^= 0xFF
                try bytes.write(to: victim)
            }
            let state = sandbox.stateSnapshot()

            // When
            let run = try await sandbox.run(["cache", "verify"])

            // Then: both reported and removed, non-zero exit; the rest stays
            #expect(run.failed, "\(run)")
            #expect(run.outputLines.first?.hasPrefix("ImageCache: \(entries.count) checked, \(entries.count - 2) valid") == true, "\(run)")
            #expect(run.outputLines.first?.hasSuffix(", 2 bad") == true, "\(run)")
            #expect(run.standardOutput.contains(first.lastPathComponent), "\(run)")
            #expect(run.standardOutput.contains(second.lastPathComponent), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: first.path))
            #expect(!FileManager.default.fileExists(atPath: second.path))
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).count == entries.count - 2)
            #expect(sandbox.stateSnapshot() == state)

            // When: verified again
            let again = try await sandbox.run(["cache", "verify"])

            // Then: clean
            #expect(again.succeeded, "\(again)")
            let allClean = again.outputLines.allSatisfy { $0.hasSuffix(" 0 bad") }
            #expect(allClean, "\(again)")
        }
    }

    @Test("cache verify --json reports a damaged entry and fails too")
    func verifyJSONFindsCorruption() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: one page entry cut short
            try await warm(sandbox, server)
            let pages = sandbox.cacheEntries(in: sandbox.pageCacheDirectory)
            let victim = try #require(pages.first)
            let bytes = try Data(contentsOf: victim)
            try bytes.prefix(bytes.count / 2).write(to: victim)

            // When
            let run = try await sandbox.run(["cache", "verify", "--json"])

            // Then
            #expect(run.failed, "\(run)")
            let report = try [String: VerifyJSON].decode(run.standardOutput, from: "cache verify --json")
            let problems = report["PageCache"]?.problems ?? []
            #expect(problems.count == 1, "\(run)")
            let problemFile = problems.first?["file"].map { URL(fileURLWithPath: $0).lastPathComponent }
            #expect(problemFile == victim.lastPathComponent)
            #expect(problems.first?["removed"] == "true")
            #expect(report["PageCache"]?.validEntries == pages.count - 1)
            #expect(report["ImageCache"]?.problems.isEmpty == true)
            #expect(!FileManager.default.fileExists(atPath: victim.path))

            // Then: the next run fetches what was lost and works
            let page = try await sandbox.run(["page", "--no-images"], against: server)
            #expect(page.succeeded, "\(page)")
        }
    }
}

/// `cache stats --json`.
struct StatsJSON: Decodable {
    struct Layer: Decodable {
        struct Statistics: Decodable {
            var entryCount: Int
            var totalBytes: Int
            var sizeLimit: Int
            var hits: Int
            var misses: Int
            var writes: Int
            var corruptEntriesRemoved: Int
        }
        var name: String
        var path: String
        var statistics: Statistics
    }
    var root: String
    var rootSource: String
    var caches: [Layer]

    /// The statistics of the layer named `name` (`ImageCache`, `PageCache`).
    func layer(_ name: String) throws -> Layer.Statistics {
        let named = caches.first { $0.name == name }
        return try #require(named, "no \(name) in cache stats").statistics
    }
}

/// One layer of `cache verify --json`.
struct VerifyJSON: Decodable {
    var checkedEntries: Int
    var validEntries: Int
    var validBytes: Int
    var problems: [[String: String]]
}
