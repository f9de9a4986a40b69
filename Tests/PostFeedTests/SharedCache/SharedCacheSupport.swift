import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Synchronization
import Testing

/// Instances of a service as the shared-tier tests model them: each with its own cache root
/// (disk layer), its own loader and its own connection to one real Redis.
enum SharedCacheSupport {
    /// Collects the tier's warnings.
    final class Warnings: Sendable {
        private let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
        func add(_ message: String) { messages.withLock { $0.append(message) } }
    }

    /// A tier on `redis` with short reconnect delays, so a restarted Redis is used again soon.
    static func shared(_ redis: RedisTestServer, warnings: Warnings = Warnings(), lease: Duration = .seconds(3)) throws -> RedisCache {
        RedisCache(configuration: RedisCache.Configuration(
            address: try RedisAddress(parsing: redis.url), namespace: "test:", leaseDuration: lease,
            leasePollInterval: .milliseconds(10), reconnectDelay: .milliseconds(20), maxReconnectDelay: .milliseconds(100),
            warningHandler: { warnings.add($0) }))
    }

    /// One instance: a pipeline over its own disk cache in `root` and `shared`.
    static func instance(_ client: HTTPClient, root: URL, shared: RedisCache?) throws -> (ImagePipeline, DiskCache) {
        let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
        return (ImagePipeline(loader: client, disk: disk, shared: shared), disk)
    }

    /// Runs `body` with a fixture server, an HTTP client, a Redis and a temporary folder.
    static func withSetUp<T>(
        server configuration: FixtureServerConfiguration = FixtureServerConfiguration(),
        _ body: (RunningFixtureServer, HTTPClient, RedisTestServer, URL) async throws -> T
    ) async throws -> T {
        let root = FeedTestSupport.temporaryDirectory("shared-cache")
        defer { try? FileManager.default.removeItem(at: root) }
        let redis = try RedisTestServer()
        defer {
            redis.stop()
            try? FileManager.default.removeItem(at: redis.folder)
        }
        return try await RunningFixtureServer.withRunning(configuration) { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
                try await body(server, client, redis, root)
            }
        }
    }

    static func imageURL(_ server: RunningFixtureServer, _ name: String) -> URL {
        server.baseURL.appendingPathComponent("images").appendingPathComponent(name)
    }

    static func images(_ server: RunningFixtureServer) -> Int { server.requestCount(pathPrefix: "/images/") }
}
