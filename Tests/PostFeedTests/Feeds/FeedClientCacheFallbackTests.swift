import Foundation
import PostFeed
import PostFeedCache
import PostFeedServer
import Testing

@Suite("FeedClient with a cache root it cannot create")
struct FeedClientCacheFallbackTests {
    @Test("The run caches in a private temporary folder, which shutdown removes")
    func fallbackFolderIsRemovedAtShutdown() async throws {
        // Given a cache root under a regular file (unusable even for root)
        let root = FeedTestSupport.temporaryDirectory("fallback")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let fallback = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-\(getpid())")

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(
                server: server, cacheRoot: blocker.appendingPathComponent("cache"))
            try await FeedClient.withFeedClient(configuration) { client in
                // When the client works from the fallback
                try await client.infinite.loadMore()
                #expect(client.pageCache.directory.path.hasPrefix(fallback.path))
                #expect(FileManager.default.fileExists(atPath: fallback.path))
            }
        }

        // Then nothing is left behind
        #expect(!FileManager.default.fileExists(atPath: fallback.path))
    }
}
