import Foundation
import PostFeedRedis
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// The refresh cut-off a page lookup applies with a shared tier is read once per
/// `invalidationsRememberedFor` (a `GET` of the invalidation key and a disk read), not on
/// every lookup; this process's own refresh applies at once.
@Suite("Shared cache tier: reading the refresh cut-off, against a real redis-server", .serialized)
struct SharedInvalidationReadTests {
    typealias Support = SharedCacheSupport
    typealias Pages = SharedPageTests

    @Test("Two page lookups in a row read the invalidation key once; a refresh of this process applies to the next at once")
    func invalidationKeyReadOnce() async throws {
        try await Support.withSetUp { server, client, redis, root in
            let b = try Pages.repository(client, server, root: root.appendingPathComponent("b"), shared: try Support.shared(redis))
            for number in 1...2 { _ = try await b.page(.number(number), cachePolicy: .useCache, priority: .high) }
            #expect(Pages.pageRequests(server) == 2)

            let aShared = try Support.shared(redis)
            let a = try Pages.repository(client, server, root: root.appendingPathComponent("a"), shared: aShared)
            let gets = try redis.calls(of: "get")
            let first = try await a.page(.number(1), cachePolicy: .useCache, priority: .high)
            let second = try await a.page(.number(2), cachePolicy: .useCache, priority: .high)
            #expect(first.isFromCache)
            #expect(second.isFromCache)
            #expect(aShared.statistics().hits == 2)
            #expect(Pages.pageRequests(server) == 2)
            let made = try redis.calls(of: "get") - gets
            #expect(made == 3, "two page GETs and one of the invalidation key")

            // A refreshes: B's page 1, stored before, is no longer taken, remembered cut-off or not.
            await a.invalidateCachedPages()
            let again = try await a.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(!again.isFromCache)
            #expect(Pages.pageRequests(server) == 3)
            #expect(aShared.statistics().outdated == 1)
        }
    }
}
