import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// Pages (and posts) through the shared tier: instances with their own page caches, one
/// real Redis, the fixture server counting the page requests.
@Suite("Shared cache tier for pages: memory → disk → Redis → network, against a real redis-server", .serialized)
struct SharedPageTests {
    typealias Support = SharedCacheSupport

    /// One instance: a repository over its own page cache in `root` and `shared`.
    static func repository(
        _ client: HTTPClient, _ server: RunningFixtureServer, root: URL, shared: RedisCache?,
        maximumPageBytes: Int? = nil
    ) throws -> HTTPPostRepository {
        var backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
        if let maximumPageBytes { backend.maximumPageBodySize = maximumPageBytes }
        let cache = try DiskCache(directory: root.appendingPathComponent("PageCache"))
        return try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache, sharedCache: shared)
    }

    static func pageRequests(_ server: RunningFixtureServer) -> Int { server.requestCount(path: "/api/posts") }

    static func ids(_ page: Page) -> [PostID] { page.posts.map(\.id) }

    /// The Redis keys of page entries (not leases, not invalidation marks).
    static func pageKeys(_ redis: RedisTestServer) throws -> [String] {
        try redis.cli("KEYS", "test:*").split(separator: "\n").map(String.init)
            .filter { !$0.contains("lease:") && !$0.contains("invalidated:") }
    }

    @Test("A second instance with its own page cache gets page 1 from Redis: no origin request for the page")
    func secondInstanceReadsPageFromRedis() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let first = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            let original = try await first.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 1)
            #expect(try Self.pageKeys(redis).count == 1, "the fetched page was shared")

            let secondShared = try Support.shared(redis)
            let second = try Self.repository(client, server, root: root.appendingPathComponent("b"), shared: secondShared)
            let copy = try await second.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 1, "the second instance read Redis, not the origin")
            #expect(Self.ids(copy) == Self.ids(original))
            #expect(copy.nextKey == original.nextKey)
            #expect(copy.isFromCache)
            #expect(secondShared.statistics().hits == 1)
        }
    }

    @Test("After a refresh an instance takes no shared page stored before it; every instance sees the refresh")
    func refreshSkipsOlderSharedPages() async throws {
        try await Support.withSetUp { server, client, redis, root in
            // B fetches and shares pages 1 to 4.
            let b = try Self.repository(client, server, root: root.appendingPathComponent("b"), shared: try Support.shared(redis))
            for number in 1...4 { _ = try await b.page(.number(number), cachePolicy: .useCache, priority: .high) }
            #expect(Self.pageRequests(server) == 4)

            // A refreshes, then reads page 2: Redis holds B's older copy, which A must not take.
            let aShared = try Support.shared(redis)
            let a = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: aShared)
            await a.invalidateCachedPages()
            let refreshedAt = Date()
            let page2 = try await a.page(.number(2), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 5, "page 2 came from the origin after the refresh")
            #expect(!page2.isFromCache)
            #expect(aShared.statistics().outdated == 1)
            #expect(aShared.statistics().hits == 0)

            // A's fetch replaced the older copy in Redis: a third instance gets the new one.
            let cShared = try Support.shared(redis)
            let c = try Self.repository(client, server, root: root.appendingPathComponent("c"), shared: cShared)
            let fromRedis = try await c.page(.number(2), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 5)
            #expect(fromRedis.isFromCache)
            // Page 1 in Redis is B's, older than A's refresh: C sees the refresh too and fetches.
            _ = try await c.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 6, "the refresh recorded in Redis applies to every instance")
            #expect(cShared.statistics().outdated == 1)
            let markKey = aShared.invalidationKey(forScope: a.backend.identity)
            let markTime = try #require(Double(try redis.cli("GET", markKey))) / 1000
            #expect(markTime <= refreshedAt.timeIntervalSince1970 + 0.001)

            // Without the mark in Redis (lost, or Redis down at the refresh), A still applies
            // its own: B's page 3 is older than A's refresh.
            try redis.cli("DEL", markKey)
            _ = try await a.page(.number(3), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 7, "A's own refresh time still applies")
            // A new repository (a new process) on A's cache root reads it from the page
            // cache's generation entry: B's page 4 is older too.
            let later = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            _ = try await later.page(.number(4), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 8, "the cache root's refresh time applies to its next runs")
        }
    }

    @Test("A corrupted page value in Redis never reaches a reader: deleted, counted, fetched from the origin")
    func corruptPageValue() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let first = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            let original = try await first.page(.number(1), cachePolicy: .useCache, priority: .high)
            let redisKey = try #require(try Self.pageKeys(redis).first)
            var value = try redis.cliData(["GET", redisKey])
            let middle = value.startIndex + value.count / 3
            value[middle] ^= 0xFF
            try redis.cli("SET", redisKey, input: value)

            let shared = try Support.shared(redis)
            let second = try Self.repository(client, server, root: root.appendingPathComponent("b"), shared: shared)
            let page = try await second.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Self.ids(page) == Self.ids(original), "the reader got the origin's page")
            #expect(!page.isFromCache)
            #expect(Self.pageRequests(server) == 2)
            #expect(shared.statistics().corruptRemoved == 1)
            #expect(try redis.cliData(["GET", redisKey]) != value, "replaced by the origin's page")
        }
    }

    @Test("Page values over the size cap stay local; one over a reader's page limit is not served to it")
    func oversizePageValue() async throws {
        try await Support.withSetUp { server, client, redis, root in
            var capped = try Support.shared(redis).configuration
            capped.sizeCap = 200
            let cappedShared = RedisCache(configuration: capped)
            let first = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: cappedShared)
            _ = try await first.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(try Self.pageKeys(redis).isEmpty, "over the cap: not shared")
            #expect(cappedShared.statistics().oversize == 1)

            // A page another instance shared (its limit allows it) is larger than this
            // reader's maximumPageBytes: the reader does not take it and asks the origin,
            // which answers with the same too-large page: an error, never the Redis copy.
            let second = try Self.repository(client, server, root: root.appendingPathComponent("b"), shared: try Support.shared(redis))
            _ = try await second.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Self.pageRequests(server) == 2)
            #expect(try Self.pageKeys(redis).count == 1)
            let small = try Self.repository(
                client, server, root: root.appendingPathComponent("c"), shared: try Support.shared(redis), maximumPageBytes: 100)
            var failure: RepositoryError?
            do { _ = try await small.page(.number(1), cachePolicy: .useCache, priority: .high) } catch { failure = error as? RepositoryError }
            #expect(failure?.code == .network)
            #expect(Self.pageRequests(server) == 3, "the reader asked the origin")
        }
    }

    @Test("Two instances missing the same page at once make one origin request (the lease holder's)")
    func leaseCoalescesPageMisses() async throws {
        try await Support.withSetUp(server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(300)))) {
            server, client, redis, root in
            let a = try Self.repository(client, server, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            let bShared = try Support.shared(redis)
            let b = try Self.repository(client, server, root: root.appendingPathComponent("b"), shared: bShared)
            async let first = a.page(.number(1), cachePolicy: .useCache, priority: .high)
            async let second = b.page(.number(1), cachePolicy: .useCache, priority: .high)
            let (one, two) = try await (first, second)
            #expect(Self.ids(one) == Self.ids(two))
            #expect(Self.pageRequests(server) == 1, "one origin request across both instances")
        }
    }
}
