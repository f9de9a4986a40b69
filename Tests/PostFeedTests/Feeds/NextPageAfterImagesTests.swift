import Clocks
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

    /// Whether something sleeps on `clock` (TestClock's check throws when something does).
    static func hasSleeper(_ clock: Clocks.TestClock<Duration>) async -> Bool {
        do {
            try await clock.checkSuspension()
            return false
        } catch {
            return true
        }
    }

    @Test("with a slow image on screen, the next page is prefetched once nextPageHeadStart has passed on the feed's clock, not before", .timeLimit(.minutes(1)))
    func headStartIsBounded() async throws {
        let server = FixtureServerConfiguration(faults: FaultInjection(bandwidthLimits: ["/images/img-027.png": 64]))
        let clock = Clocks.TestClock<Duration>()
        try await FeedTestSupport.withClient(
            server: server, pageSize: 10,
            configure: { $0.paged.nextPageHeadStart = .seconds(30); $0.paged.clock = clock }
        ) { client, running, _ in
            try await client.readPages(.number(3)) { _ in }
            let pageFour = { running.recordedRequests.contains { $0.path == "/api/posts" && $0.query?.contains("page=4") == true } }
            // The head start's timer is waiting on the feed's clock (no advance before it is).
            let timing = await FeedTestSupport.eventually { await Self.hasSleeper(clock) }
            try #require(timing, "no timer waits on the feed's clock")
            // Just short of the head start, with img-027 still crawling in: not yet.
            await clock.advance(by: .seconds(29))
            try await Task.sleep(for: .milliseconds(200))
            let early = pageFour()
            #expect(!early, "page 4 was requested before the head start had passed")
            // The head start passes: the prefetch goes out although the image has not landed.
            await clock.advance(by: .seconds(1))
            let prefetched = await FeedTestSupport.eventually { pageFour() }
            #expect(prefetched)
        }
    }
}
