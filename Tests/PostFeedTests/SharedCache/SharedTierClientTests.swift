import Foundation
import PostFeedRedis
import Logging
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Synchronization
import Testing

/// `FeedClient.Configuration.sharedCache` turns the shared tier on for pages and images.
@Suite("FeedClient's shared tier: pages and images, one warning", .serialized)
struct SharedTierClientTests {
    typealias Records = FeedClientLoggingTests.RecordingHandler.Records

    static func client(_ server: RunningFixtureServer, root: URL, redis: String, records: Records) throws -> FeedClient {
        let address = try RedisAddress(parsing: redis)
        let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root) { configuration in
            configuration.sharedCache = RedisCache.Configuration(address: address)
        }
        let logger = Logger(label: "app") { _ in FeedClientLoggingTests.RecordingHandler(records: records) }
        return try FeedClient(configuration, logger: logger)
    }

    @Test("One sharedCache setting shares pages and images: a second client reads both from Redis")
    func pagesAndImages() async throws {
        try await SharedCacheSupport.withSetUp { server, _, redis, root in
            let first = try Self.client(server, root: root.appendingPathComponent("a"), redis: redis.url, records: Records())
            let page = try await first.repository.page(.number(1), cachePolicy: .useCache, priority: .high)
            let imageText = try #require(page.posts.first?.imageURL)
            let imageURL = try #require(URL(string: imageText))
            _ = try await first.images.image(for: imageURL)
            await first.shutdown()
            let pages = server.requestCount(path: "/api/posts")
            let images = SharedCacheSupport.images(server)

            let second = try Self.client(server, root: root.appendingPathComponent("b"), redis: redis.url, records: Records())
            let again = try await second.repository.page(.number(1), cachePolicy: .useCache, priority: .high)
            let image = try await second.images.image(for: imageURL)
            await second.shutdown()
            #expect(again.isFromCache)
            #expect(image.source == .shared)
            #expect(server.requestCount(path: "/api/posts") == pages, "the page came from Redis")
            #expect(SharedCacheSupport.images(server) == images, "the image came from Redis")
            #expect(second.sharedPageCache?.statistics().hits == 1)
            #expect(second.sharedImageCache?.statistics().hits == 1)
        }
    }

    @Test("Redis down: pages and images are served from the origin, with one warning for the client, not one per tier")
    func oneWarning() async throws {
        try await SharedCacheSupport.withSetUp { server, _, redis, root in
            redis.stop()
            let records = Records()
            let client = try Self.client(server, root: root, redis: redis.url, records: records)
            let page = try await client.repository.page(.number(1), cachePolicy: .useCache, priority: .high)
            let imageText = try #require(page.posts.first?.imageURL)
            let imageURL = try #require(URL(string: imageText))
            let image = try await client.images.image(for: imageURL)
            await client.shutdown()
            #expect(image.source == .network)
            #expect((client.sharedPageCache?.statistics().unavailable ?? 0) >= 1)
            #expect((client.sharedImageCache?.statistics().unavailable ?? 0) >= 1)
            let warnings = records.lines.withLock { lines in lines.map(\.message) }.filter { $0.contains("shared cache") }
            #expect(warnings.count == 1, "\(warnings)")
        }
    }
}
