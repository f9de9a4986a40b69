import Foundation
import PostFeed
import PostFeedCache
import PostFeedServer
import Testing

/// Serialized: the tests share the process's fallback folder, `/tmp/postfeed-<pid>`.
@Suite("FeedClient with a cache root it cannot create", .serialized)
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

    @Test("When the fallback cannot be opened either, the error says so with its code")
    func noCacheAtAll() async throws {
        // Given the cache root under a file, and a file where the fallback folder would go
        let root = FeedTestSupport.temporaryDirectory("nocache")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let fallback = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-\(getpid())")
        try Data("in the way".utf8).write(to: fallback)
        defer { try? FileManager.default.removeItem(at: fallback) }

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: blocker.appendingPathComponent("cache"))

            // When / Then
            let error = #expect(throws: FeedClientError.self) { try FeedClient(configuration) }
            #expect(error?.code == .cacheUnavailable)
            #expect(error?.description.contains(fallback.path) == true)
        }
    }

    @Test("A page size the backend rejects is a badBackend error")
    func pageSizeTheBackendRejects() async throws {
        let root = FeedTestSupport.temporaryDirectory("badbackend")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 500)

            let error = #expect(throws: FeedClientError.self) { try FeedClient(configuration) }
            #expect(error?.code == .badBackend)
            #expect(error?.description.contains("500") == true)
        }
    }
}
