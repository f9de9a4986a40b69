import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("InfiniteFeed: offset drift and unseen posts")
struct InfiniteFeedDriftTests {
    @Test("A page overlapping loaded posts (items inserted upstream) adds no duplicates and leaves no gap")
    func offsetDrift() async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(flavor: .dummyJSON), pageSize: 10, preset: "dummyjson",
            configure: { $0.infinite.prefetchNextPage = false }
        ) { client, _, _ in
            let feed = client.infinite
            try await feed.loadMore()
            let first = await feed.loadedPostIDs
            #expect(first == Array(1...10))
            // Five posts were inserted at the top upstream: the next offset (10) now starts
            // five posts earlier, at what used to be offset 5.
            await feed.restore(InfiniteFeed.Snapshot(
                segments: [InfiniteFeed.Segment(key: .offset(0), postIDs: first)], nextKey: .offset(5), totalCount: 251))
            let added = try await feed.loadMore()
            #expect(added == 5)
            #expect(await feed.loadedPostIDs == Array(1...15))
            #expect(await feed.driftEvents == 1)
        }
    }

    @Test("Unseen only: posts shown in an earlier run are hidden on refresh")
    func unseenOnly() async throws {
        try await FeedTestSupport.withClient(configure: {
            $0.infinite.unseenOnly = true
            $0.infinite.prefetchNextPage = false
        }) { client, _, _ in
            let feed = client.infinite
            await feed.setHiddenPostIDs(PostIDSet(1...15))
            try await feed.refresh()
            let ids = await feed.loadedPostIDs
            #expect(ids.first == 16)
            let repeatsAnEarlierPost = ids.contains { ($0.integerValue ?? .max) <= 15 }
            #expect(!repeatsAnEarlierPost, "\(ids)")
        }
    }
}
