import Synchronization
import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("InfiniteFeed against the fixture backend")
struct InfiniteFeedTests {
    @Test("Walking to the end lists every post exactly once and stops")
    func walksToTheEnd() async throws {
        try await FeedTestSupport.withClient(pageSize: 50) { client, _, _ in
            let feed = client.infinite
            while try await feed.loadMore() > 0 {}
            let ids = await feed.loadedPostIDs
            #expect(ids.count == 247)
            #expect(Set(ids).count == ids.count)
            #expect(await feed.hasMore == false)
            #expect(await feed.totalCount == 247)
            #expect(try await feed.loadMore() == 0)
        }
    }

    @Test("loadMoreIfNeeded loads only within 5 items of the end")
    func threshold() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: { $0.infinite.prefetchNextPage = false }) { client, server, _ in
            let feed = client.infinite
            try await feed.loadMore()
            let before = FeedTestSupport.listRequests(server)
            #expect(try await feed.loadMoreIfNeeded(visibleIndex: 3) == false)
            #expect(FeedTestSupport.listRequests(server) == before)
            #expect(try await feed.loadMoreIfNeeded(visibleIndex: 4) == true)
            #expect(await feed.count == 20)
        }
    }

    @Test("Concurrent loads join the one in flight: each page is fetched once")
    func singleFlight() async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(100))),
            configure: { $0.infinite.prefetchNextPage = false }
        ) { client, server, _ in
            let feed = client.infinite
            let added = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await feed.loadMore() } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let eachAddedTen = added.allSatisfy { $0 == 10 }
            #expect(eachAddedTen, "\(added)")
            #expect(await feed.count == 10)
            #expect(FeedTestSupport.listRequests(server) == 1)
        }
    }

    @Test("The next page is prefetched once and the load that wants it does not fetch it again")
    func prefetchThenLoadFetchesOnce() async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let feed = client.infinite
            try await feed.loadMore()
            let prefetchedPage2 = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) == 2 }
            #expect(prefetchedPage2, "\(FeedTestSupport.listRequests(server)) list requests")
            try await feed.loadMore()
            #expect(await feed.count == 20)
            // Page 1, page 2 (prefetched, then served from the page cache), page 3 (prefetched).
            let prefetchedPage3 = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) == 3 }
            #expect(prefetchedPage3, "\(FeedTestSupport.listRequests(server)) list requests")
            #expect(server.requestCountsByPath["/api/posts"] == 3)
        }
    }

    /// A client with one connection to a server that answers in 1 s, and ten image
    /// prefetches per page: everything after the request on the wire waits in the engine's
    /// queue, in priority order. 1 s is long enough that a slow, busy test process still
    /// queues its next request while the one before it is being answered (at 400 ms, with
    /// the server on threads of its own and 2 cores shared by the whole suite, the client
    /// once queued page 3 only after a second image had started).
    private static func withOneSlowConnection(
        prefetchNextPage: Bool = true, _ body: (FeedClient, RunningFixtureServer) async throws -> Void
    ) async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(faults: FaultInjection(latency: .seconds(1))),
            configure: {
                $0.http.maximumConnectionsPerHost = 1
                $0.infinite.imagePrefetchCount = 10
                $0.infinite.prefetchNextPage = prefetchNextPage
            }
        ) { client, server, _ in try await body(client, server) }
    }

    @Test("The next page's prefetch goes ahead of a backlog of image prefetches")
    func pagePrefetchOvertakesImagePrefetches() async throws {
        try await Self.withOneSlowConnection { client, server in
            // Given page 1's ten image prefetches queued, when page 2 is loaded right away
            // (page 3's prefetch then joins the queue behind that backlog)
            try await client.infinite.loadMore()
            try await client.infinite.loadMore()
            let pageRequests = { server.recordedRequests.filter { $0.path == "/api/posts" }.count }
            let askedForPage3 = await FeedTestSupport.eventually { pageRequests() >= 3 }
            #expect(askedForPage3, "\(pageRequests()) page requests")

            // Then page 3 was asked for before the image backlog was worked off: after page 2,
            // at most the one image already running came first
            let requests = server.recordedRequests
            let pages = requests.indices.filter { requests[$0].path == "/api/posts" }
            try #require(pages.count >= 3)
            let imagesBetween = requests[(pages[1] + 1)..<pages[2]].count
            #expect(imagesBetween <= 1, "\(requests.map(\.path))")
        }
    }

    @Test("A visible load joining the background catalog load does not wait behind image prefetches")
    func visibleLoadOvertakesTheBackgroundLoad() async throws {
        try await Self.withOneSlowConnection(prefetchNextPage: false) { client, server in
            // Given page 1 with its ten image prefetches queued, and the background catalog
            // load asking for page 2 at low priority behind them
            let feed = client.infinite
            try await feed.loadMore()
            // The first image on the wire: the other nine wait in the engine's queue.
            let anImageStarted = await FeedTestSupport.eventually { server.requestCount(pathPrefix: "/images/") >= 1 }
            try #require(anImageStarted)
            await feed.startBackgroundCatalogLoad(batchSize: 1)
            let catalogLoadRunning = await FeedTestSupport.eventually { await feed.isLoadingMore }
            try #require(catalogLoadRunning)

            // When the reader's screen needs page 2
            let added = try await feed.loadMore(priority: .high)

            // Then it came before the image backlog: after page 1, at most the image running
            #expect(added > 0)
            let requests = server.recordedRequests
            let pages = requests.indices.filter { requests[$0].path == "/api/posts" }
            try #require(pages.count >= 2, "\(requests.map(\.path))")
            #expect(requests[(pages[0] + 1)..<pages[1]].count <= 1, "\(requests.map(\.path))")
            await feed.cancelBackgroundWork()
        }
    }

    @Test("A window keeps at most maxPages in memory; dropped pages come back from the page cache")
    func windowIsBounded() async throws {
        try await FeedTestSupport.withClient(configure: {
            $0.infinite.maximumResidentPages = 2
            $0.infinite.prefetchNextPage = false
        }) { client, server, _ in
            let feed = client.infinite
            for index in stride(from: 0, to: 100, by: 10) {
                _ = try await feed.posts(in: index..<(index + 10))
                try await feed.loadMoreIfNeeded(visibleIndex: index + 9)
            }
            #expect(await feed.count >= 100)
            #expect(await feed.residentPageCount <= 2)
            let requests = FeedTestSupport.listRequests(server)
            let first = try await feed.posts(in: 0..<10)
            #expect(first.map(\.id) == Array(1...10))
            #expect(FeedTestSupport.listRequests(server) == requests, "page 1 must come from the page cache")
            #expect(await feed.residentPageCount <= 2)
        }
    }

    @Test("A failed refresh keeps the old content and reports the error")
    func failedRefreshKeepsContent() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration: FeedClient.Configuration?
        let client: FeedClient = try await RunningFixtureServer.withRunning { server in
            configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            let client = try FeedClient(try #require(configuration))
            try await client.infinite.loadMore()
            try await client.infinite.loadMore()
            return client
        }
        // The server is gone now.
        let before = await client.infinite.loadedPostIDs
        await #expect(throws: RepositoryError.self) { try await client.infinite.refresh() }
        #expect(await client.infinite.loadedPostIDs == before)
        await client.shutdown()
    }

    @Test("Refresh goes back to page 1 from the network")
    func refreshStartsOver() async throws {
        try await FeedTestSupport.withClient(configure: { $0.infinite.prefetchNextPage = false }) { client, server, _ in
            let feed = client.infinite
            try await feed.loadMore()
            try await feed.loadMore()
            let before = FeedTestSupport.listRequests(server)
            try await feed.refresh()
            #expect(await feed.count == 10)
            #expect(await feed.loadedPostIDs == Array(1...10))
            #expect(FeedTestSupport.listRequests(server) == before + 1)
        }
    }

    @Test("Background catalog load fetches the remaining pages and can be cancelled")
    func backgroundCatalogLoad() async throws {
        try await FeedTestSupport.withClient(pageSize: 50, configure: { $0.infinite.prefetchNextPage = false }) { client, _, _ in
            let feed = client.infinite
            try await feed.loadMore()
            await feed.startBackgroundCatalogLoad(batchSize: 2)
            await feed.waitForBackgroundCatalogLoad()
            #expect(await feed.count == 247)
            #expect(await feed.hasMore == false)
            #expect(await feed.backgroundError == nil)
        }
    }

    @Test("A feed that goes on past maximumPosts is ordered over its first pages holding them, and says so")
    func popularityOrderIsBounded() async throws {
        try await FeedTestSupport.withClient(pageSize: 20) { client, _, _ in
            let order = try await client.popularityOrder(maximumPosts: 50)
            #expect(order.cappedAt == 60)
            #expect(order.entries.count == 60)
            #expect(Set(order.entries.map(\.position)) == Set(0..<60))
            #expect(order.stoppedEarly == nil)
            let whole = try await client.popularityOrder(maximumPosts: 247)
            #expect(whole.cappedAt == nil && whole.entries.count == 247)
        }
    }

    @Test("The popularity order covers the whole feed, most popular first, ties in the backend's order; the feed keeps its order")
    func popularityOrder() async throws {
        try await FeedTestSupport.withClient(pageSize: 50) { client, _, _ in
            let calls = Mutex<[Int]>([])
            let order = try await client.popularityOrder { loaded, _ in calls.withLock { $0.append(loaded) } }
            #expect(order.entries.count == 247)
            #expect(order.stoppedEarly == nil)
            let progress = calls.withLock { $0 }
            #expect(Array(progress.prefix(5)) == [0, 50, 100, 150, 200])
            #expect(Set(order.entries.map(\.position)) == Set(0..<247))
            for (first, second) in zip(order.entries, order.entries.dropFirst()) {
                let (l, r) = (first.post.popularity ?? -.infinity, second.post.popularity ?? -.infinity)
                #expect(l > r || (l == r && first.position < second.position))
            }
            // Across pages, not within each: the most popular post is not on page 1's top.
            let feedIDs = await client.infinite.loadedPostIDs
            #expect(feedIDs == Array(1...247), "the infinite feed itself stays in the backend's order")
            let byPage = stride(from: 0, to: 247, by: 50).flatMap { start in
                order.entries.filter { (start..<start + 50).contains($0.position) }
            }
            #expect(order.entries.map(\.post.id) != byPage.map(\.post.id), "a per-page order would group posts by page")
        }
    }
}
