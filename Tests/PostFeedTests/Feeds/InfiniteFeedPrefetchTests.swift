import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("Infinite feed prefetch")
struct InfiniteFeedPrefetchTests {
    @Test("After a page loads, the next page and its first imagePrefetchCount images are warmed: showing them needs no request")
    func nextPageImagesArePrefetched() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: { $0.infinite.imagePrefetchCount = 10 }) { client, server, _ in
            let feed = client.infinite
            try await feed.loadMore()
            // The page the reader will scroll into: page 2, as the server has it.
            let nextPosts = try await client.repository.page(.number(2), cachePolicy: .cacheElseLoad, priority: .high).posts
            let nextImages = Set(nextPosts.compactMap { client.backend.imageURL(for: $0)?.path })
            try #require(!nextImages.isEmpty)
            // Given the reader stays on page 1 until the prefetches are done
            let requested = await FeedTestSupport.eventually {
                nextImages.isSubset(of: Set(server.recordedRequests.map(\.path)))
            }
            #expect(requested, "page 2's images were never prefetched: \(server.recordedRequests.map(\.path))")
            await client.images.finishPrefetching()
            server.resetRequestCounts()

            // When the next page is shown with its images
            try await feed.loadMore()
            let shown = try await feed.posts(in: 10..<20)
            for post in shown { _ = await client.image(for: post) }

            // Then nothing for them reached the server (page 3's prefetch may have)
            let asked = server.recordedRequests.filter { $0.path.hasPrefix("/images/") && nextImages.contains($0.path) }
            #expect(asked.isEmpty, "\(asked.map(\.path))")
            let askedForPage2 = server.recordedRequests.contains { $0.path == "/api/posts" && ($0.query ?? "").contains("page=2&") }
            #expect(!askedForPage2, "\(server.recordedRequests)")
        }
    }

    @Test("imagePrefetchCount 0 prefetches no image of the next page")
    func noImagePrefetch() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: { $0.infinite.imagePrefetchCount = 0 }) { client, server, _ in
            try await client.infinite.loadMore()
            let prefetchedPage2 = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) == 2 }
            #expect(prefetchedPage2, "\(FeedTestSupport.listRequests(server)) list requests")
            await client.infinite.cancelBackgroundWork()
            #expect(server.requestCount(pathPrefix: "/images/") == 0)
        }
    }
}
