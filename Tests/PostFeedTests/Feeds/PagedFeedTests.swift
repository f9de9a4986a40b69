import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("PagedFeed against the fixture backend")
struct PagedFeedTests {
    @Test("goTo, next, previous, first and last move between numbered pages")
    func navigation() async throws {
        try await FeedTestSupport.withClient(configure: { $0.paged.prefetchNeighbour = false }) { client, _, _ in
            let feed = client.paged
            try await feed.goTo(page: 3)
            #expect(await feed.currentPage == 3)
            #expect(await feed.posts.map(\.id) == Array(21...30))
            #expect(await feed.totalPages == 25)
            try await feed.next()
            #expect(await feed.currentPage == 4)
            try await feed.previous()
            try await feed.previous()
            #expect(await feed.currentPage == 2)
            try await feed.last()
            #expect(await feed.currentPage == 25)
            #expect(await feed.posts.map(\.id) == Array(241...247))
            #expect(await feed.hasNext == false)
            try await feed.first()
            #expect(await feed.posts.first?.id == 1)
        }
    }

    @Test("Overlapping jumps end on the page asked for last, even when an earlier one answers later")
    func latestJumpWins() async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(300))),
            configure: { $0.paged.prefetchNeighbour = false }
        ) { client, _, _ in
            // Given page 5 in the page cache, and page 1 on screen
            let feed = client.paged
            try await feed.goTo(page: 5)
            try await feed.goTo(page: 1)

            // When a jump to page 3 (from the network, slow) is overtaken by one to page 5
            // (from the cache, fast)
            let slow = Task { try await feed.goTo(page: 3) }
            try await Task.sleep(for: .milliseconds(50))
            try await feed.goTo(page: 5)
            let overtaken = try await slow.value

            // Then page 5 stays on screen; the overtaken call still returns its page
            #expect(overtaken.posts.first?.id == 21)
            #expect(await feed.currentPage == 5)
            #expect(await feed.posts.first?.id == 41)
            #expect(await feed.isLoading == false)
        }
    }

    @Test("An out-of-range page is a clear error and the current page stays visible")
    func outOfRange() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let feed = client.paged
            try await feed.goTo(page: 2)
            let error = await #expect(throws: RepositoryError.self) { try await feed.goTo(page: 99) }
            #expect(error?.code == .pageOutOfRange)
            #expect(error?.description.contains("99") == true)
            await #expect(throws: RepositoryError.self) { try await feed.goTo(page: 0) }
            #expect(await feed.currentPage == 2)
            #expect(await feed.posts.first?.id == 11)
        }
    }

    @Test("Revisiting a page is served from the page cache; the neighbour is prefetched")
    func cacheAndNeighbour() async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let feed = client.paged
            try await feed.goTo(page: 1)
            let prefetchedPage2 = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) == 2 }
            #expect(prefetchedPage2, "page 2 is prefetched: \(FeedTestSupport.listRequests(server)) list requests")
            try await feed.goTo(page: 2)
            let prefetchedPage3 = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) == 3 }
            #expect(prefetchedPage3, "page 2 came from the cache; page 3 prefetched: \(FeedTestSupport.listRequests(server)) list requests")
            try await feed.goTo(page: 1)
            try await feed.goTo(page: 2)
            #expect(FeedTestSupport.listRequests(server) == 3)
        }
    }

    @Test("A cursor backend is walked to reach page N, and last() walks to the end")
    func cursorWalk() async throws {
        try await FeedTestSupport.withClient(preset: "postfeed-cursor", configure: { $0.paged.prefetchNeighbour = false }) { client, _, _ in
            let feed = client.paged
            try await feed.goTo(page: 3)
            #expect(await feed.posts.map(\.id) == Array(21...30))
            try await feed.last()
            #expect(await feed.currentPage == 25)
            #expect(await feed.posts.last?.id == 247)
        }
    }
}
