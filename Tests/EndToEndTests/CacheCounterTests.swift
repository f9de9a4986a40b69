import Foundation
import PostFeedServer
import Testing

@Suite("postfeed cache stats across processes")
struct CacheCounterTests {
    private func stats(_ sandbox: Sandbox) async throws -> StatsJSON {
        let stats = try await sandbox.run(["cache", "stats", "--json"])
        try #require(stats.succeeded, "\(stats)")
        return try StatsJSON.decode(stats.standardOutput, from: "cache stats --json")
    }

    @Test("Writes of separate processes add up in cache stats, as hits and misses do")
    func writesAddUpAcrossProcesses() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given one process that stored page 1 and its images
            let first = try await sandbox.run(["list"], against: server)
            try #require(first.succeeded, "\(first)")
            let afterFirst = try await stats(sandbox)
            let firstImages = try afterFirst.layer("ImageCache")
            let firstPages = try afterFirst.layer("PageCache")
            // Every entry on disk was written at least once, by that process.
            #expect(firstImages.entryCount > 0)
            #expect(firstImages.writes >= firstImages.entryCount, "\(afterFirst)")
            #expect(firstPages.writes >= firstPages.entryCount && firstPages.writes > 0, "\(afterFirst)")

            // When a second process stores page 2 and its images
            let second = try await sandbox.run(["list"], against: server)
            try #require(second.succeeded, "\(second)")

            // Then a third process counts both processes' writes
            let afterSecond = try await stats(sandbox)
            let images = try afterSecond.layer("ImageCache")
            let pages = try afterSecond.layer("PageCache")
            #expect(images.entryCount > firstImages.entryCount)
            #expect(images.writes >= firstImages.writes + (images.entryCount - firstImages.entryCount), "\(afterSecond)")
            #expect(pages.writes > firstPages.writes, "\(afterSecond)")
            // `cache stats` itself writes nothing.
            let again = try await stats(sandbox)
            #expect(try again.layer("ImageCache").writes == images.writes)

            // And the text report shows them
            let text = try await sandbox.run(["cache", "stats"])
            #expect(text.succeeded, "\(text)")
            #expect(text.standardOutput.contains("writes \(images.writes)"), "\(text)")
        }
    }

    @Test("Corrupt entries that cache verify removed are still counted by the next cache stats")
    func verifyRemovalsCounted() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given an image entry with a byte flipped in its body
            let list = try await sandbox.run(["list"], against: server)
            try #require(list.succeeded, "\(list)")
            let victim = try #require(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).first)
            var bytes = try Data(contentsOf: victim)
            try #require(bytes.count > 100)
            bytes[bytes.startIndex + 10] ^= 0xFF
            try bytes.write(to: victim)

            // When one process verifies (and removes it)
            let verify = try await sandbox.run(["cache", "verify"])
            try #require(verify.failed, "\(verify)")

            // Then another one counts the removal
            #expect(try await stats(sandbox).layer("ImageCache").corruptEntriesRemoved == 1)
        }
    }
}
