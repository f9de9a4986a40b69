import Testing
@testable import PostFeedCache

@Suite("MemoryCache under concurrency")
struct MemoryCacheConcurrencyTests {
    @Test("Many tasks reading, writing and removing keep the cache consistent and within limits")
    func concurrentAccess() async {
        // Given a cache with both limits, shared by 16 tasks
        let cache = MemoryCache<Int, [Int]>(countLimit: 50, totalCostLimit: 4000, maximumEntryCostRatio: 0.05)
        let tasks = 16
        let operations = 2000

        // When each task stores, reads (checking what it reads) and removes overlapping keys
        let wrongValues = await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var wrong = 0
                    for step in 0..<operations {
                        let key = (task * 7 + step * 13) % 200
                        switch step % 4 {
                        case 0, 1:
                            cache.setObject([key, key], forKey: key, cost: key % 250)
                        case 2:
                            if let value = cache.object(forKey: key), value != [key, key] { wrong += 1 }
                        default:
                            if step % 40 == 3 { cache.removeObject(forKey: key) }
                            _ = cache.object(forKey: key)
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }

        // Then no read returned another key's value, limits hold, and the books balance
        #expect(wrongValues == 0)
        #expect(cache.isConsistent)
        #expect(cache.count <= 50)
        #expect(cache.totalCost <= 4000)
        let statistics = cache.statistics
        let reads = tasks * operations / 2
        #expect(statistics.hits + statistics.misses == reads)
    }
}
