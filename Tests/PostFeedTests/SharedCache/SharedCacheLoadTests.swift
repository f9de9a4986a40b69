import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("Shared cache tier: leases and connections under load", .serialized)
struct SharedCacheLoadTests {
    typealias Support = SharedCacheSupport

    @Test("A connection Redis closed (CLIENT KILL) is replaced at once: the read is served from Redis, no warning, nothing skipped")
    func closedConnectionIsRetried() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let warnings = Support.Warnings()
        let shared = try Support.shared(redis, warnings: warnings)
        let metadata = CacheEntryMetadata(key: "k", url: "http://x/k", expiresAt: Date().addingTimeInterval(60), storedAt: Date())
        #expect(await shared.share(DiskCacheEntry(data: Data("bytes".utf8), metadata: metadata), forKey: "k"))
        // Every client but redis-cli itself: the tier's connection is gone.
        #expect(try redis.cli("CLIENT", "KILL", "TYPE", "normal") == "1")
        #expect(await shared.lookup(forKey: "k")?.data == Data("bytes".utf8))
        #expect(shared.statistics().unavailable == 0)
        #expect(shared.statistics().reconnects == 1)
        #expect(warnings.all.isEmpty)
    }

    @Test("A holder whose fetch outlasts one lease duration renews it: the waiting instance does not fetch again")
    func leaseIsRenewed() async throws {
        // img-001.jpg (46 KB) at 15 KB/s takes about 3 s; the lease lasts 1 s unless renewed.
        let faults = FaultInjection(bandwidthLimits: ["/images/img-001.jpg": 15_000])
        try await Support.withSetUp(server: FixtureServerConfiguration(faults: faults)) { server, client, redis, root in
            let url = Support.imageURL(server, "img-001.jpg")
            let first = try Support.instance(client, root: root.appendingPathComponent("a"), shared: try Support.shared(redis, lease: .seconds(1))).0
            let secondShared = try Support.shared(redis, lease: .seconds(1))
            let second = try Support.instance(client, root: root.appendingPathComponent("b"), shared: secondShared).0
            async let holder = first.image(for: url)
            // The second instance starts once the first holds the lease and its transfer began.
            for _ in 0..<1_000 where server.requestCount(path: "/images/img-001.jpg") == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let waited = try await second.image(for: url)
            let fetched = try await holder
            #expect(fetched.source == .network)
            #expect(waited.source == .shared)
            #expect(waited.data == fetched.data)
            #expect(Support.images(server) == 1, "the lease outlived its duration while its holder fetched")
            #expect(secondShared.statistics().leaseWaits >= 1)
        }
    }
}
