import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("Shared cache tier: memory → disk → Redis → network, against a real redis-server", .serialized)
struct SharedCacheTests {
    typealias Support = SharedCacheSupport

    @Test("An entry round-trips through Redis whole, with a TTL of its freshness plus the stale window")
    func roundTrip() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let shared = try Support.shared(redis)
        let now = Date()
        let metadata = CacheEntryMetadata(
            key: "k", url: "http://x/k", etag: "\"v1\"", contentType: "image/png", expiresAt: now.addingTimeInterval(60),
            storedAt: now, attributes: ["width": "2"])
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        #expect(await shared.share(DiskCacheEntry(data: body, metadata: metadata), forKey: "k"))
        let back = try #require(await shared.lookup(forKey: "k"))
        #expect(back.data == body)
        #expect(back.metadata == metadata)
        let ttl = try #require(Int(try redis.cli("PTTL", shared.redisKey(forKey: "k"))))
        #expect(ttl > 60_000 && ttl <= 60_000 + 24 * 3_600_000)
        // The synchronous DataCaching side reads the same entries.
        #expect(shared.entry(forKey: "k")?.data == body)
        try shared.store(Data("two".utf8), metadata: metadata, forKey: "k2")
        #expect(await shared.lookup(forKey: "k2")?.data == Data("two".utf8))
        shared.removeEntry(forKey: "k2")
        #expect(await shared.lookup(forKey: "k2") == nil)
        #expect(shared.statistics().writes == 2)
    }

    @Test("Entries over the size cap stay local")
    func sizeCap() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        var configuration = try Support.shared(redis).configuration
        configuration.sizeCap = 1_000
        let shared = RedisCache(configuration: configuration)
        let metadata = CacheEntryMetadata(key: "big", storedAt: Date())
        #expect(await shared.share(DiskCacheEntry(data: Data(count: 2_000), metadata: metadata), forKey: "big") == false)
        #expect(try redis.cli("EXISTS", shared.redisKey(forKey: "big")) == "0")
        #expect(shared.statistics().oversize == 1)
    }

    @Test("A second instance with its own cache root gets the image from Redis: no origin request, and keeps it on its disk")
    func secondInstanceFromRedis() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let url = Support.imageURL(server, "img-001.jpg")
            let (first, _) = try Support.instance(client, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            let original = try await first.image(for: url)
            #expect(Support.images(server) == 1)
            let secondShared = try Support.shared(redis)
            let (second, secondDisk) = try Support.instance(client, root: root.appendingPathComponent("b"), shared: secondShared)
            let copy = try await second.image(for: url)
            #expect(copy.data == original.data)
            #expect(original.source == .network)
            #expect(copy.source == .shared, "the response names the layer that answered")
            #expect(Support.images(server) == 1, "the second instance read Redis, not the origin")
            #expect(secondShared.statistics().hits == 1)
            // Written behind the reader: wait for it (bounded).
            var tries = 0
            while secondDisk.entry(forKey: copy.cacheKey) == nil, tries < 500 {
                try await Task.sleep(for: .milliseconds(10))
                tries += 1
            }
            #expect(secondDisk.entry(forKey: copy.cacheKey)?.data == original.data, "a Redis hit is written to the disk layer")
        }
    }

    @Test("Eight instances missing the same image at once make one origin fetch (the lease holder's)")
    func oneFetchAcrossInstances() async throws {
        try await Support.withSetUp(server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(200)))) {
            server, client, redis, root in
            let url = Support.imageURL(server, "img-002.jpg")
            var pipelines: [ImagePipeline] = []
            for index in 0..<8 {
                pipelines.append(try Support.instance(client, root: root.appendingPathComponent("i\(index)"), shared: try Support.shared(redis)).0)
            }
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for pipeline in pipelines { group.addTask { try await pipeline.image(for: url).data } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(bodies.count == 8)
            #expect(Set(bodies).count == 1)
            #expect(Support.images(server) == 1)
        }
    }

    @Test("A lease nobody releases (its holder died) makes the others wait, then fetch once it expires")
    func abandonedLease() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let url = Support.imageURL(server, "img-003.png")
            let shared = try Support.shared(redis)
            let key = ImagePipeline.defaultCacheKey(url)
            try redis.cli("SET", shared.leaseKey(forKey: key), "dead-holder", "PX", "600")
            let (pipeline, _) = try Support.instance(client, root: root, shared: shared)
            let image = try await pipeline.image(for: url)
            #expect(image.source == .network)
            #expect(Support.images(server) == 1)
            #expect(shared.statistics().leaseWaits >= 1)
            #expect(try redis.cli("EXISTS", shared.redisKey(forKey: key)) == "1", "the fetched image was shared")
        }
    }

    @Test("A corrupted value in Redis is never served: it is deleted, counted and treated as a miss")
    func corruptValue() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let url = Support.imageURL(server, "img-004.jpg")
            let (first, _) = try Support.instance(client, root: root.appendingPathComponent("a"), shared: try Support.shared(redis))
            let original = try await first.image(for: url)
            let shared = try Support.shared(redis)
            let redisKey = shared.redisKey(forKey: original.cacheKey)
            var value = try redis.cliData(["GET", redisKey])
            let middle = value.startIndex + value.count / 4
            value[middle] ^= 0xFF
            try redis.cli("SET", redisKey, input: value)
            #expect(try redis.cliData(["GET", redisKey]) == value, "the corruption is in place")

            #expect(await shared.lookup(forKey: original.cacheKey) == nil)
            #expect(try redis.cli("EXISTS", redisKey) == "0", "deleted")
            #expect(shared.statistics().corruptRemoved == 1)

            try redis.cli("SET", redisKey, "not an entry")
            let (second, _) = try Support.instance(client, root: root.appendingPathComponent("b"), shared: shared)
            let served = try await second.image(for: url)
            #expect(served.data == original.data, "the reader got the origin's bytes")
            #expect(Support.images(server) == 2)
            #expect(shared.statistics().corruptRemoved == 2)
        }
    }

    @Test("Redis stopped mid-run: reads are served, one warning; restarted: used again")
    func redisStopsAndComesBack() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let warnings = Support.Warnings()
            let shared = try Support.shared(redis, warnings: warnings)
            let (pipeline, _) = try Support.instance(client, root: root.appendingPathComponent("a"), shared: shared)
            _ = try await pipeline.image(for: Support.imageURL(server, "img-005.jpg"))
            #expect(warnings.all.isEmpty)

            redis.stop()
            for name in ["img-006.png", "img-007.jpg", "img-008.jpg"] {
                let image = try await pipeline.image(for: Support.imageURL(server, name))
                #expect(image.source == .network)
            }
            #expect(warnings.all.count == 1)
            #expect(warnings.all.first?.contains(redis.url) == true)
            #expect(shared.statistics().unavailable >= 1)

            try redis.start()
            // Past the longest reconnect delay (100 ms here): the next load connects again.
            try await Task.sleep(for: .milliseconds(250))
            let url = Support.imageURL(server, "img-009.png")
            let image = try await pipeline.image(for: url)
            #expect(try redis.cli("EXISTS", shared.redisKey(forKey: image.cacheKey)) == "1", "shared again")
            #expect(shared.statistics().reconnects >= 1)
            #expect(warnings.all.count == 1, "still one warning")
            let requests = Support.images(server)
            let (other, _) = try Support.instance(client, root: root.appendingPathComponent("b"), shared: try Support.shared(redis))
            _ = try await other.image(for: url)
            #expect(Support.images(server) == requests)
        }
    }

    @Test("Redis answering slowly (CLIENT PAUSE) is skipped past the timeout: the image comes from the origin")
    func slowRedis() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let warnings = Support.Warnings()
            let shared = try Support.shared(redis, warnings: warnings)
            #expect(await shared.lookup(forKey: "warm-up") == nil)  // connected
            // Redis 7 refuses DEBUG by default: CLIENT PAUSE holds every client's commands.
            try redis.cli("CLIENT", "PAUSE", "1000", "ALL")
            let (pipeline, _) = try Support.instance(client, root: root, shared: shared)
            let image = try await pipeline.image(for: Support.imageURL(server, "img-010.jpg"))
            #expect(image.source == .network)
            #expect(Support.images(server) == 1)
            #expect(shared.statistics().unavailable >= 1)
            #expect(warnings.all.count == 1)
            #expect(warnings.all.first?.contains("unavailable") == true)
        }
    }

    @Test("Redis full (maxmemory, noeviction): reads are served, the refused writes counted, one warning")
    func fullRedis() async throws {
        try await Support.withSetUp { server, client, redis, root in
            try redis.cli("CONFIG", "SET", "maxmemory-policy", "noeviction")
            try redis.cli("CONFIG", "SET", "maxmemory", "1")
            let warnings = Support.Warnings()
            let shared = try Support.shared(redis, warnings: warnings)
            let (pipeline, _) = try Support.instance(client, root: root, shared: shared)
            for name in ["img-011.jpg", "img-012.png"] {
                let image = try await pipeline.image(for: Support.imageURL(server, name))
                #expect(image.source == .network)
            }
            #expect(Support.images(server) == 2)
            #expect(shared.statistics().full >= 2)
            #expect(shared.statistics().writes == 0)
            #expect(warnings.all.count == 1)
            #expect(warnings.all.first?.contains("full") == true)
        }
    }

    @Test("Shared-cache addresses: redis://host:port[/db], anything else named in the error")
    func addresses() throws {
        let address = try RedisAddress(parsing: "redis://10.0.0.5:6380/3")
        #expect(address == RedisAddress(host: "10.0.0.5", port: 6380, database: 3))
        #expect(try RedisAddress(parsing: "redis://cache").port == 6379)
        for bad in ["http://x:1", "redis://", "redis://h:0", "redis://h:1/x", "redis://h:1/-1", "redis://h:1/1?x=y"] {
            let error = #expect(throws: RedisCacheError.self) { try RedisAddress(parsing: bad) }
            #expect(error?.description.contains(bad) == true)
        }
        // A password is refused and never printed.
        let withPassword = #expect(throws: RedisCacheError.self) { try RedisAddress(parsing: "redis://u:s3cr3t@h:1") }
        #expect(withPassword?.description.contains("redis://h:1") == true)
        #expect(withPassword?.description.contains("s3cr3t") == false)
        // An IPv6 literal: bare for the resolver, bracketed when shown.
        let ipv6 = try RedisAddress(parsing: "redis://[::1]:16391/2")
        #expect(ipv6 == RedisAddress(host: "::1", port: 16391, database: 2))
        #expect(ipv6.description == "redis://[::1]:16391/2")
    }
}
