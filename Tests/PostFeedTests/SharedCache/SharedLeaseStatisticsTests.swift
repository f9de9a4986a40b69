import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// What one wait on another instance's lease adds to ``RedisCache/Statistics``: the polls
/// are not lookups of their own.
@Suite("Shared cache tier: statistics of a lease wait, against a real redis-server", .serialized)
struct SharedLeaseStatisticsTests {
    typealias Support = SharedCacheSupport

    @Test("A load that waits on another instance's lease and gets its value counts one miss and one hit, however many polls")
    func leaseWaitCountsOneMiss() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let url = Support.imageURL(server, "img-003.png")
            // Instance A fetches and shares the image; its value is taken out of Redis, to be
            // put back while B waits on a lease nobody renews.
            let aShared = try Support.shared(redis)
            let (a, _) = try Support.instance(client, root: root.appendingPathComponent("a"), shared: aShared)
            let original = try await a.image(for: url)
            let redisKey = aShared.redisKey(forKey: original.cacheKey)
            let value = try redis.cliData(["GET", redisKey])
            try redis.cli("DEL", redisKey)
            try redis.cli("SET", aShared.leaseKey(forKey: original.cacheKey), "other-holder", "PX", "30000")

            let bShared = try Support.shared(redis)
            let (b, _) = try Support.instance(client, root: root.appendingPathComponent("b"), shared: bShared)
            async let waited = b.image(for: url)
            for _ in 0..<3_000 where bShared.statistics().leaseWaits == 0 { try await Task.sleep(for: .milliseconds(10)) }
            // B polled (empty) several times before the value comes back.
            let gets = try redis.calls(of: "get")
            var tries = 0
            while try redis.calls(of: "get") < gets + 3, tries < 3_000 {
                tries += 1
                try await Task.sleep(for: .milliseconds(10))
            }
            try redis.cli("SET", redisKey, input: value)
            let image = try await waited

            #expect(image.source == .shared)
            #expect(Support.images(server) == 1)
            let statistics = bShared.statistics()
            #expect(statistics.leaseWaits == 1)
            #expect(statistics.leaseWaitHits == 1)
            #expect(statistics.misses == 1, "each empty poll was counted as a miss")
            #expect(statistics.hits == 1)
            #expect(statistics.outdated == 0)
        }
    }
}
