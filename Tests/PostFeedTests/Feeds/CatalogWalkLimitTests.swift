import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 29, item 2: browse's background catalog walk on a feed that never ends stopped
/// nowhere, and left a place too deep to save. It stops where `--sort popularity` stops.
@Suite("The background catalog walk stops at the catalog limit")
struct CatalogWalkLimitTests {
    @Test("one limit for both walks: the background walk and the popularity order")
    func oneLimit() {
        #expect(InfiniteFeed.maximumCatalogPosts == 100_000)
    }

    @Test("a walk with posts past its limit stops at the limit and says so")
    func walkStopsAtTheLimit() async throws {
        try await FeedTestSupport.withClient(pageSize: 20, configure: { $0.infinite.prefetchNextPage = false }) { client, _, _ in
            // Given a feed of 247 posts, one page loaded
            let feed = client.infinite
            try await feed.loadMore()

            // When the background walk runs with a limit of 60 posts
            await feed.startBackgroundCatalogLoad(batchSize: 2, maximumPosts: 60)
            await feed.waitForBackgroundCatalogLoad()

            // Then it stopped at 60 posts, with more to come, and says where it stopped
            let (count, more, capped, failure) = (
                await feed.count, await feed.hasMore, await feed.backgroundCatalogCappedAt, await feed.backgroundError)
            #expect(count == 60)
            #expect(more)
            #expect(capped == 60)
            #expect(failure == nil)

            // And starting it again past the limit loads nothing more
            await feed.startBackgroundCatalogLoad(maximumPosts: 60)
            await feed.waitForBackgroundCatalogLoad()
            let countAfter = await feed.count
            #expect(countAfter == 60)
        }
    }

    @Test("a walk that reaches the end is not capped")
    func walkToTheEndIsNotCapped() async throws {
        try await FeedTestSupport.withClient(pageSize: 50) { client, _, _ in
            let feed = client.infinite
            try await feed.loadMore()
            await feed.startBackgroundCatalogLoad()
            await feed.waitForBackgroundCatalogLoad()
            let (count, capped) = (await feed.count, await feed.backgroundCatalogCappedAt)
            #expect(count == 247)
            #expect(capped == nil)
        }
    }
}
