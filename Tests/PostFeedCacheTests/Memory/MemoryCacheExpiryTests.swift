import Testing
@testable import PostFeedCache

@Suite("MemoryCache TTL and statistics")
struct MemoryCacheExpiryTests {
    @Test("An entry is served until its TTL passes on the injected clock, then missed and removed")
    func ttlExpiresOnRead() {
        // Given an entry with a 60 s TTL and one without
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(clock: clock)
        cache.setObject(1, forKey: "short", ttl: .seconds(60))
        cache.setObject(2, forKey: "forever")

        // When 59 s pass, it is still there
        clock.advance(by: .seconds(59))
        #expect(cache.object(forKey: "short") == 1)

        // When the 60th second passes
        clock.advance(by: .seconds(1))

        // Then it is a miss, is removed, and counted as an expiration
        #expect(cache.object(forKey: "short") == nil)
        #expect(cache.count == 1)
        #expect(cache.object(forKey: "forever") == 2)
        let statistics = cache.statistics
        #expect(statistics.expirations == 1)
        #expect(statistics.hits == 2)
        #expect(statistics.misses == 1)
    }

    @Test("Storing again restarts the TTL")
    func restoreResetsTTL() {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(clock: clock)
        cache.setObject(1, forKey: "k", ttl: .seconds(10))
        clock.advance(by: .seconds(8))
        cache.setObject(2, forKey: "k", ttl: .seconds(10))
        clock.advance(by: .seconds(8))
        #expect(cache.object(forKey: "k") == 2)
    }

    @Test("removeExpiredObjects sweeps only expired entries")
    func sweepRemovesExpired() {
        let clock = ManualClock()
        let cache = MemoryCache<Int, Int>(clock: clock)
        for key in 0..<6 { cache.setObject(key, forKey: key, ttl: .seconds(Int64(key + 1) * 10)) }
        clock.advance(by: .seconds(30))
        #expect(cache.removeExpiredObjects() == 3)
        #expect(cache.keysByRecency == [5, 4, 3])
        #expect(cache.statistics.expirations == 3)
    }

    @Test("Hits, misses, evictions and rejections are counted")
    func countersCount() {
        // Given a two-entry cache with a cost cap
        let cache = MemoryCache<String, Int>(countLimit: 2, totalCostLimit: 100)
        cache.setObject(1, forKey: "a", cost: 1)
        cache.setObject(2, forKey: "b", cost: 1)
        cache.setObject(3, forKey: "c", cost: 1)       // evicts "a"
        cache.setObject(4, forKey: "huge", cost: 50)   // refused

        // When reading two hits and two misses
        _ = cache.object(forKey: "b")
        _ = cache.object(forKey: "c")
        _ = cache.object(forKey: "a")
        _ = cache.object(forKey: "huge")

        // Then the snapshot says so
        #expect(cache.statistics == MemoryCacheStatistics(
            hits: 2, misses: 2, evictions: 1, expirations: 0, rejections: 1, count: 2, totalCost: 2))
        #expect(cache.statistics.hitRatio == 0.5)
    }
}
