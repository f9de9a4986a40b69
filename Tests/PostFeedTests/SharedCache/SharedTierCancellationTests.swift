import Foundation
import PostFeedRedis
import Logging
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@testable import PostFeed

/// A page prefetch cancelled while it waits at its gate does no shared-tier work: no Redis
/// lookup, no disk write behind a hit (which could start after `finishTransfers()` returned
/// and race the flush at exit).
@Suite("Shared cache tier: a cancelled page prefetch, against a real redis-server", .serialized)
struct SharedTierCancellationTests {
    typealias Support = SharedCacheSupport

    @Test("A page prefetch cancelled at its gate looks nothing up in Redis and asks the origin nothing")
    func cancelledPrefetchLooksNothingUp() async throws {
        try await Support.withSetUp { server, client, redis, root in
            // Another instance shared page 1: a lookup would be a hit with a disk write behind it.
            let other = try SharedPageTests.repository(client, server, root: root.appendingPathComponent("b"), shared: try Support.shared(redis))
            _ = try await other.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(SharedPageTests.pageRequests(server) == 1)

            let shared = try Support.shared(redis)
            let repository = try SharedPageTests.repository(client, server, root: root.appendingPathComponent("a"), shared: shared)
            let images = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
            let prefetch = PagePrefetch(
                key: .number(1), repository: repository, after: (images: images, atMost: .seconds(3600), clock: ContinuousClock()),
                logger: Logger(label: "test"))
            prefetch.task.cancel()
            await prefetch.task.value
            images.cancel()
            await repository.loader.finishTransfers()

            let statistics = shared.statistics()
            #expect(statistics.hits == 0, "the cancelled prefetch read Redis")
            #expect(statistics.misses == 0, "the cancelled prefetch read Redis")
            #expect(SharedPageTests.pageRequests(server) == 1, "the cancelled prefetch asked the origin")
        }
    }
}
