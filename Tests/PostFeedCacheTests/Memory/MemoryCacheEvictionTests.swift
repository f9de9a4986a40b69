import Testing
@testable import PostFeedCache

@Suite("MemoryCache eviction")
struct MemoryCacheEvictionTests {
    @Test("Over the count limit, the least recently stored entry goes first")
    func countLimitEvictsOldest() {
        // Given a cache holding three entries
        let cache = MemoryCache<String, Int>(countLimit: 3, totalCostLimit: 0)
        cache.setObject(1, forKey: "a")
        cache.setObject(2, forKey: "b")
        cache.setObject(3, forKey: "c")

        // When a fourth arrives
        cache.setObject(4, forKey: "d")

        // Then the oldest is gone and the rest stay, newest first
        #expect(cache.object(forKey: "a") == nil)
        #expect(cache.keysByRecency == ["d", "c", "b"])
        #expect(cache.count == 3)
        #expect(cache.statistics.evictions == 1)
    }

    @Test("Reading an entry makes it the most recent: strict LRU")
    func readRefreshesRecency() {
        // Given a full cache where "a" is the oldest
        let cache = MemoryCache<String, Int>(countLimit: 3, totalCostLimit: 0)
        cache.setObject(1, forKey: "a")
        cache.setObject(2, forKey: "b")
        cache.setObject(3, forKey: "c")

        // When "a" is read and a new entry arrives
        #expect(cache.object(forKey: "a") == 1)
        cache.setObject(4, forKey: "d")

        // Then "b", now the least recently used, is evicted instead of "a"
        #expect(cache.object(forKey: "b") == nil)
        #expect(cache.object(forKey: "a") == 1)
        #expect(cache.keysByRecency == ["a", "d", "c"])
    }

    @Test("Replacing a value refreshes recency and replaces its cost")
    func replaceUpdatesCostAndRecency() {
        // Given two entries
        let cache = MemoryCache<String, String>(countLimit: 0, totalCostLimit: 100, maximumEntryCostRatio: 1)
        cache.setObject("old", forKey: "a", cost: 40)
        cache.setObject("b", forKey: "b", cost: 10)

        // When "a" is stored again with another cost
        cache.setObject("new", forKey: "a", cost: 25)

        // Then there is one "a", at the head, and the total reflects the new cost
        #expect(cache.count == 2)
        #expect(cache.totalCost == 35)
        #expect(cache.keysByRecency == ["a", "b"])
        #expect(cache.object(forKey: "a") == "new")
        #expect(cache.isConsistent)
    }

    @Test("Over the cost limit, least recently used entries go until the total fits")
    func costLimitEvictsUntilFits() {
        // Given entries costing 30 + 30 + 30 of 100
        let cache = MemoryCache<String, Int>(countLimit: 0, totalCostLimit: 100, maximumEntryCostRatio: 1)
        cache.setObject(1, forKey: "a", cost: 30)
        cache.setObject(2, forKey: "b", cost: 30)
        cache.setObject(3, forKey: "c", cost: 30)
        _ = cache.object(forKey: "a")  // "b" is now the least recently used

        // When an entry costing 50 arrives
        cache.setObject(4, forKey: "d", cost: 50)

        // Then "b" and "c" are evicted (in that order) and the total is under the limit
        #expect(cache.keysByRecency == ["d", "a"])
        #expect(cache.totalCost == 80)
        #expect(cache.statistics.evictions == 2)
    }

    @Test("An entry above the per-entry share of the cost limit is not kept")
    func costCapRefusesHugeEntries() {
        // Given a cost limit of 1000 with the default 10 % per-entry cap, and an entry for "big"
        let cache = MemoryCache<String, Int>(countLimit: 0, totalCostLimit: 1000)
        cache.setObject(0, forKey: "big", cost: 10)
        cache.setObject(1, forKey: "small", cost: 100)

        // When a value costing more than 100 is stored for "big"
        cache.setObject(2, forKey: "big", cost: 101)

        // Then it is refused, the stale value is gone, and nothing else was evicted
        #expect(cache.object(forKey: "big") == nil)
        #expect(cache.object(forKey: "small") == 1)
        #expect(cache.statistics.rejections == 1)
        #expect(cache.statistics.evictions == 0)
        #expect(cache.totalCost == 100)
    }

    @Test("The per-entry cap is configurable")
    func costCapRatioConfigurable() {
        let cache = MemoryCache<String, Int>(countLimit: 0, totalCostLimit: 1000, maximumEntryCostRatio: 0.5)
        cache.setObject(1, forKey: "half", cost: 500)
        cache.setObject(2, forKey: "more", cost: 501)
        #expect(cache.object(forKey: "half") == 1)
        #expect(cache.object(forKey: "more") == nil)
    }

    @Test("Lowering the limits evicts at once")
    func loweringLimitsEvictsNow() {
        // Given five entries of cost 10
        let cache = MemoryCache<Int, Int>(countLimit: 10, totalCostLimit: 1000)
        for key in 0..<5 { cache.setObject(key, forKey: key, cost: 10) }

        // When the count limit drops to 3, then the cost limit to 20
        cache.countLimit = 3
        #expect(cache.keysByRecency == [4, 3, 2])
        cache.totalCostLimit = 20

        // Then only the two most recent remain
        #expect(cache.keysByRecency == [4, 3])
        #expect(cache.totalCost == 20)
        #expect(cache.statistics.evictions == 3)
    }

    @Test("Remove and remove-all drop entries without counting evictions")
    func removal() {
        let cache = MemoryCache<String, Int>()
        cache.setObject(1, forKey: "a", cost: 5)
        cache.setObject(2, forKey: "b", cost: 7)
        cache.removeObject(forKey: "a")
        #expect(cache.object(forKey: "a") == nil)
        #expect(cache.totalCost == 7)
        cache.removeAllObjects()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.statistics.evictions == 0)
        #expect(cache.isConsistent)
    }

    @Test("Slots freed by eviction are reused without breaking the list")
    func slotReuseKeepsListConsistent() {
        // Given a small cache churned through many more keys than it holds
        let cache = MemoryCache<Int, Int>(countLimit: 8, totalCostLimit: 0)
        var model: [Int] = []  // reference LRU, most recent first
        var generator = SystemRandomNumberGenerator()
        for step in 0..<2000 {
            let key = Int.random(in: 0..<20, using: &generator)
            // When entries are stored, read and removed at random
            switch step % 3 {
            case 0:
                cache.setObject(key, forKey: key)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
                if model.count > 8 { model.removeLast() }
            case 1:
                let hit = cache.object(forKey: key)
                #expect((hit != nil) == model.contains(key))
                if hit != nil { model.removeAll { $0 == key }; model.insert(key, at: 0) }
            default:
                cache.removeObject(forKey: key)
                model.removeAll { $0 == key }
            }
        }
        // Then the cache agrees with the reference model in content and order
        #expect(cache.keysByRecency == model)
        #expect(cache.isConsistent)
    }
}
