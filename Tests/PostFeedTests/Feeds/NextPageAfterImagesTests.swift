import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 16's cold `page 1`: the page shown and its images come first. The next page, and
/// its images, are prefetched once the current page's images have landed (or after
/// `nextPageHeadStart`), and a navigation to that page does not wait for them.
@Suite("Next page prefetched after the images on screen")
struct NextPageAfterImagesTests {
    /// Page 3's image paths that page 4 does not show too (pageSize 10).
    static func ownImagePaths(of page: [Post], besides other: [Post]) -> Set<String> {
        let paths = { (posts: [Post]) in Set(posts.compactMap { $0.imageURL.flatMap(URL.init(string:))?.path }) }
        return paths(page).subtracting(paths(other))
    }

    @Test("page N+1 is requested after every image of page N, and still lands with its images")
    func nextPageFollowsTheImagesOnScreen() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: { $0.paged.nextPageHeadStart = .seconds(600) }) { client, server, _ in
            var shown: [[Post]] = []
            try await client.readPages(.number(3)) { shown.append($0.posts) }
            await client.finishPrefetching()
            let log = server.recordedRequests.map { "\($0.path)?\($0.query ?? "")" }
            let pageFour = log.firstIndex(of: "/api/posts?page=4&limit=10")
            let requested = try #require(pageFour, "\(log)")

            try await client.readPages(.next) { shown.append($0.posts) }
            let current = try #require(shown.first)
            let next = try #require(shown.last)
            let ownImages = Self.ownImagePaths(of: current, besides: next)
            #expect(!ownImages.isEmpty)
            let lastImage = log.lastIndex { entry in ownImages.contains(String(entry.prefix { $0 != "?" })) }
            let last = try #require(lastImage, "\(log)")
            #expect(last < requested, "\(log)")
            // And page 4's images were prefetched with it: none was asked for again.
            let nextImages = Self.ownImagePaths(of: next, besides: current)
            let after = server.recordedRequests.dropFirst(log.count).filter { nextImages.contains($0.path) }
            #expect(after.isEmpty, "\(after.map(\.path))")
        }
    }

    @Test("a navigation to the next page starts its prefetch at once, without waiting for a slow image", .timeLimit(.minutes(1)))
    func navigationDoesNotWaitForImages() async throws {
        // img-027.png is on page 3 only; at 64 bytes/s it takes minutes.
        let server = FixtureServerConfiguration(faults: FaultInjection(bandwidthLimits: ["/images/img-027.png": 64]))
        try await FeedTestSupport.withClient(server: server, pageSize: 10, configure: { $0.paged.nextPageHeadStart = .seconds(600) }) {
            client, _, _ in
            var shown: [Int] = []
            try await client.readPages(.number(3)) { shown.append($0.page) }
            try await client.readPages(.next) { shown.append($0.page) }
            #expect(shown == [3, 4])
        }
    }

    @Test("with a slow image on screen, the next page is still prefetched after nextPageHeadStart", .timeLimit(.minutes(1)))
    func headStartIsBounded() async throws {
        let server = FixtureServerConfiguration(faults: FaultInjection(bandwidthLimits: ["/images/img-027.png": 64]))
        try await FeedTestSupport.withClient(server: server, pageSize: 10, configure: { $0.paged.nextPageHeadStart = .milliseconds(50) }) {
            client, running, _ in
            try await client.readPages(.number(3)) { _ in }
            let prefetched = await FeedTestSupport.eventually {
                running.recordedRequests.contains { $0.path == "/api/posts" && $0.query?.contains("page=4") == true }
            }
            #expect(prefetched)
        }
    }
}
