import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 16's latency budget, numbered pages: `page N+1` after `page N` makes no request
/// for the page or its images, because `page N` prefetched both before it ended.
@Suite("Next page prefetched whole")
struct NextPagePrefetchTests {
    @Test("after page N and finishPrefetching, page N+1 and its images need no request")
    func nextPageCostsNothing() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, server, _ in
            var shown: [[Post]] = []
            try await client.readPages(.number(3)) { shown.append($0.posts) }
            await client.finishPrefetching()
            let requests = server.recordedRequests.count

            try await client.readPages(.next) { shown.append($0.posts) }
            let next = try #require(shown.last)
            #expect(next.first?.id == 31, "\(next.map(\.id))")
            for post in next where post.imageURL != nil {
                let image = try #require(await client.image(for: post))
                #expect(image.response != nil, "\(image)")
            }
            // Showing page 4 prefetches page 5 (and its images): only those may follow.
            let later = server.recordedRequests.dropFirst(requests)
            let imagePaths = Set(next.compactMap { $0.imageURL.flatMap(URL.init(string:))?.path })
            let forPageFour = later.filter { request in
                (request.path == "/api/posts" && request.query?.contains("page=4") == true) || imagePaths.contains(request.path)
            }
            #expect(forPageFour.isEmpty, "\(forPageFour.map { "\($0.path)?\($0.query ?? "")" })")
            #expect(!imagePaths.isEmpty)
        }
    }
}
