import Foundation
import PostFeed
import PostFeedCache
import PostFeedServer
import Testing

/// Each client falls back to a folder of its own (`$TMPDIR/postfeed-<pid>-XXXXXX`), so
/// these tests no longer share one and need not run one at a time.
@Suite("FeedClient with a cache root it cannot create")
struct FeedClientCacheFallbackTests {
    @Test("The run caches in a private temporary folder, which shutdown removes")
    func fallbackFolderIsRemovedAtShutdown() async throws {
        // Given a cache root under a regular file (unusable even for root)
        let root = FeedTestSupport.temporaryDirectory("fallback")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-\(getpid())-").path

        let fallback = try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(
                server: server, cacheRoot: blocker.appendingPathComponent("cache"))
            return try await FeedClient.withFeedClient(configuration) { client in
                // When the client works from the fallback
                try await client.infinite.loadMore()
                let fallback = try #require(client.fallbackCacheFolder)
                #expect(fallback.path.hasPrefix(prefix))
                #expect(client.pageCache.directory.path.hasPrefix(fallback.path))
                #expect(FileManager.default.fileExists(atPath: fallback.path))
                return fallback
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
        let fallback = root.appendingPathComponent("fallback-parent")
        try Data("in the way".utf8).write(to: fallback)

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: blocker.appendingPathComponent("cache")) {
                $0.unusableCacheRoot = .fallBack(under: fallback)
            }

            // When / Then
            let error = #expect(throws: FeedClientError.self) { try FeedClient(configuration) }
            #expect(error?.code == .cacheUnavailable)
            #expect(error?.description.contains(fallback.path) == true)
        }
    }

    @Test("Two clients that fall back get a folder each; one's shutdown leaves the other's cache")
    func twoClientsFallBackApart() async throws {
        // Given two clients on one unusable cache root (under a regular file)
        let root = FeedTestSupport.temporaryDirectory("fallback-two")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: blocker.appendingPathComponent("cache"))
            let first = try FeedClient(configuration)
            let second = try FeedClient(configuration)
            let firstFolder = try #require(first.fallbackCacheFolder)
            let secondFolder = try #require(second.fallbackCacheFolder)
            #expect(firstFolder != secondFolder)
            #expect(second.imageCache.directory.path.hasPrefix(secondFolder.path))
            _ = try await second.infinite.loadMore()
            let post = try await second.repository.post(id: "1", cachePolicy: .useCache)
            let image = try #require(await second.image(for: post))
            #expect(image.response != nil)

            // When the first shuts down
            await first.shutdown()

            // Then its folder is gone, and the second's cache is whole and still works
            #expect(!FileManager.default.fileExists(atPath: firstFolder.path))
            #expect(FileManager.default.fileExists(atPath: secondFolder.path))
            #expect(second.imageCache.statistics().entryCount >= 1)
            let url = try #require(image.url)
            #expect(second.images.cachedFileURL(for: url) != nil)
            _ = try await second.paged.goTo(page: 2)
            await second.shutdown()
            #expect(!FileManager.default.fileExists(atPath: secondFolder.path))
        }
    }

    @Test("With .fail, an unusable cache root is a cacheUnavailable error naming the folder, and nothing falls back")
    func failPolicyThrows() async throws {
        let root = FeedTestSupport.temporaryDirectory("fallback-fail")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let cacheRoot = blocker.appendingPathComponent("cache")

        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: cacheRoot) {
                $0.unusableCacheRoot = .fail
            }
            let error = #expect(throws: FeedClientError.self) { try FeedClient(configuration) }
            #expect(error?.code == .cacheUnavailable)
            #expect(error?.description.contains(cacheRoot.appendingPathComponent("ImageCache").path) == true)
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
