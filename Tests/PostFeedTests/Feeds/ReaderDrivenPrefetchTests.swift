import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Images are prefetched ahead of the reader, not ahead of the background catalog load: a
/// catalog of 100,000 posts must not download 100,000 images nobody may look at, and a
/// reader whose pages were all loaded by the catalog still finds the next screen cached.
@Suite("Image prefetch follows the reader")
struct ReaderDrivenPrefetchTests {
    @Test("the background catalog load fetches pages only: no image")
    func catalogLoadFetchesNoImage() async throws {
        try await FeedTestSupport.withClient(pageSize: 20) { client, server, _ in
            // Given page 1 shown, its images and the next page's prefetched
            let feed = client.infinite
            try await feed.loadMore()
            await client.finishPrefetching()
            let imagesBefore = server.requestCount(pathPrefix: "/images/")
            #expect(imagesBefore > 0)

            // When the rest of the catalog loads in the background
            await feed.startBackgroundCatalogLoad(batchSize: 3)
            await feed.waitForBackgroundCatalogLoad()
            await client.finishPrefetching()

            // Then every page came, and not one more image
            #expect(await feed.count == 247)
            #expect(server.requestCount(pathPrefix: "/images/") == imagesBefore)
        }
    }

    @Test("loadMoreIfNeeded(visibleIndex:) prefetches the images ahead of the reader when no page is left to load")
    func readerPositionPrefetchesImages() async throws {
        try await FeedTestSupport.withClient(pageSize: 50) { client, server, _ in
            // Given the whole catalog loaded in the background (no image of posts 101…)
            let feed = client.infinite
            try await feed.loadMore()
            await feed.startBackgroundCatalogLoad()
            await feed.waitForBackgroundCatalogLoad()
            await client.finishPrefetching()
            #expect(await feed.hasMore == false)

            // When the reader is at post 101
            let loaded = try await feed.loadMoreIfNeeded(visibleIndex: 100)
            await client.finishPrefetching()
            let requests = server.recordedRequests.count

            // Then the images of the next imagePrefetchCount posts are cached: reading them
            // makes no request
            #expect(loaded == false)
            let ahead = client.configuration.infinite.imagePrefetchCount
            let posts = try await feed.posts(in: 100..<(100 + ahead))
            #expect(posts.count == ahead)
            var withImages = 0
            for post in posts where post.imageURL != nil {
                let image = try #require(await client.image(for: post))
                #expect(image.response != nil, "\(image)")
                withImages += 1
            }
            #expect(withImages > 0)
            let later = server.recordedRequests.dropFirst(requests).map(\.path)
            #expect(later.isEmpty, "\(later)")
        }
    }
}
