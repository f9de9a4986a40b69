import Foundation
import SuiteSupport
import PostFeed
import PostFeedServer
import Testing

/// Cached content at once, fresher content after (`servesExpiredPages`): a feed opened over
/// an expired page cache shows the cached pages without asking the server, then
/// `revalidateNextExpiredPage()` asks it in the background and replaces what changed.
/// Against the real fixture server, whose pages expire at once (`max-age=0`).
@Suite("Feeds serving expired pages and revalidating them")
struct ExpiredPageRevalidationTests {
    /// The fixture server with pages that are expired as soon as cached.
    /// On a port of its own: some tests start a second server at the same URL afterwards.
    private static var expiring: FixtureServerConfiguration {
        get throws { FixtureServerConfiguration(port: try TestPorts.reserve(), pageMaxAge: 0) }
    }

    /// A client configuration that serves expired pages and prefetches nothing, so every
    /// request the server sees is one the test asked for.
    private static func configuration(
        server: RunningFixtureServer, root: URL, servesExpiredPages: Bool = true
    ) throws -> FeedClient.Configuration {
        try FeedTestSupport.configuration(server: server, cacheRoot: root) { configuration in
            configuration.infinite = InfiniteFeed.Configuration(
                imagePrefetchCount: 0, prefetchNextPage: false, servesExpiredPages: servesExpiredPages)
            configuration.paged = PagedFeed.Configuration(
                prefetchNeighbour: false, prefetchImages: false, servesExpiredPages: servesExpiredPages)
        }
    }

    /// Caches pages 1 and 2 (page size 10) with a client that has since gone.
    private static func warm(_ server: RunningFixtureServer, root: URL) async throws {
        try await FeedClient.withFeedClient(configuration(server: server, root: root, servesExpiredPages: false)) { client in
            try await client.infinite.loadMore()
            try await client.infinite.loadMore()
        }
    }

    @Test("infinite: the expired cached pages at once with no request; then page 1 comes back revised, page 2 unchanged (304)")
    func infiniteServesThenReplaces() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-infinite")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(Self.expiring) { server in
            // Given: pages 1 and 2 cached and expired
            try await Self.warm(server, root: root)
            server.resetRequestCounts()
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: root)) { client in
                let feed = client.infinite

                // When: the feed is opened
                try await feed.loadMore()
                try await feed.loadMore()

                // Then: the cached posts, without a request
                let cached = await feed.posts
                #expect(cached.count == 20)
                #expect(FeedTestSupport.listRequests(server) == 0)
                #expect(await feed.expiredPageCount == 2)
                let original = cached[0].title
                #expect(!original.hasPrefix("(revision"))

                // When: post 1 changes upstream, and the expired pages are revalidated
                server.revise(postIDs: [1])
                let first = await feed.revalidateNextExpiredPage()

                // Then: page 1 (the reader's) first, replaced with the new title
                #expect(first == PageRevalidation(key: .number(1), number: 1, outcome: .replaced))
                let revised = await feed.posts
                #expect(revised[0].title == "(revision 1) \(original)")
                #expect(revised.map(\.id) == cached.map(\.id))
                #expect(Array(revised.dropFirst()) == Array(cached.dropFirst()))
                #expect(FeedTestSupport.listRequests(server) == 1)

                // Then: page 2 is unchanged (a 304), and nothing is left
                let second = await feed.revalidateNextExpiredPage()
                #expect(second == PageRevalidation(key: .number(2), number: 2, outcome: .unchanged))
                #expect(await feed.posts == revised)
                #expect(FeedTestSupport.listRequests(server) == 2)
                let none = await feed.revalidateNextExpiredPage()
                #expect(none == nil)
                #expect(await feed.isShowingStaleContent == false)
            }
        }
    }

    @Test("paged: the expired cached page at once with no request; revalidated, the page on screen is replaced")
    func pagedServesThenReplaces() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-paged")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(Self.expiring) { server in
            try await Self.warm(server, root: root)
            server.resetRequestCounts()
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: root)) { client in
                let feed = client.paged

                // When: page 2 then page 1 are shown
                try await feed.goTo(page: 2)
                try await feed.goTo(page: 1)

                // Then: from the cache, no request
                let cached = await feed.posts
                #expect(FeedTestSupport.listRequests(server) == 0)
                #expect(await feed.expiredPageCount == 2)

                // When: post 1 and post 11 change upstream; revalidation
                server.revise(postIDs: [1, 11])
                let first = await feed.revalidateNextExpiredPage()

                // Then: page 1, on screen, first: replaced
                #expect(first == PageRevalidation(key: .number(1), number: 1, outcome: .replaced))
                let posts = await feed.posts
                #expect(posts[0].title == "(revision 1) \(cached[0].title)")
                #expect(Array(posts.dropFirst()) == Array(cached.dropFirst()))

                // Then: page 2 changed too but is not on screen: the newer copy waits in the cache
                let second = await feed.revalidateNextExpiredPage()
                #expect(second == PageRevalidation(key: .number(2), number: 2, outcome: .unchanged))
                #expect(FeedTestSupport.listRequests(server) == 2)
                try await feed.goTo(page: 2)
                #expect(await feed.posts.first?.title.hasPrefix("(revision 1) ") == true)
                #expect(FeedTestSupport.listRequests(server) == 2)
                #expect(await feed.expiredPageCount == 0)
            }
        }
    }

    @Test("the server gone: the cached posts stay, and the revalidation says why")
    func offlineKeepsContent() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-offline")
        defer { try? FileManager.default.removeItem(at: root) }
        let configuration = try await RunningFixtureServer.withRunning(Self.expiring) { server in
            try await Self.warm(server, root: root)
            return try Self.configuration(server: server, root: root)
        }
        // The server is stopped now.
        try await FeedClient.withFeedClient(configuration) { client in
            let feed = client.infinite
            try await feed.loadMore()
            let cached = await feed.posts
            #expect(cached.count == 10)

            let result = await feed.revalidateNextExpiredPage()

            guard case .failed(let reason) = result?.outcome else {
                Issue.record("expected a failure, got \(String(describing: result))")
                return
            }
            #expect(reason.contains("network failed"), "\(reason)")
            #expect(await feed.posts == cached)
            #expect(await feed.staleReason == reason)
            #expect(await feed.revalidateNextExpiredPage() == nil)

            // Paged too
            try await client.paged.goTo(page: 1)
            let paged = await client.paged.revalidateNextExpiredPage()
            #expect(paged?.outcome == .failed(reason))
            #expect(await client.paged.posts == cached)
            #expect(await client.paged.staleReason == reason)
        }
    }

    @Test("without servesExpiredPages an expired page is revalidated before it is used, and nothing is queued")
    func defaultRevalidatesFirst() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-default")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(Self.expiring) { server in
            try await Self.warm(server, root: root)
            server.revise(postIDs: [1])
            server.resetRequestCounts()
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: root, servesExpiredPages: false)) { client in
                try await client.infinite.loadMore()
                #expect(await client.infinite.posts.first?.title.hasPrefix("(revision 1) ") == true)
                #expect(FeedTestSupport.listRequests(server) == 1)
                #expect(await client.infinite.expiredPageCount == 0)
                #expect(await client.infinite.revalidateNextExpiredPage() == nil)
            }
        }
    }

    /// A fixtures folder whose `posts.json` lists posts `ids` (titles `Post N`, no images).
    private static func fixtures(_ ids: [Int], in root: URL, named name: String) throws -> URL {
        let directory = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let posts = ids.map { "{\"id\":\($0),\"title\":\"Post \($0)\",\"body\":\"\"}" }
        try Data(("[" + posts.joined(separator: ",") + "]").utf8).write(to: directory.appendingPathComponent("posts.json"))
        return directory
    }

    @Test("a post deleted upstream: page 1 comes back without it and takes post 11 from page 2; page 2 then takes post 21; each post once")
    func deletedPostShiftsPages() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-shift")
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try Self.fixtures(Array(1...30), in: root, named: "before")
        let after = try Self.fixtures([1] + Array(3...30), in: root, named: "after")
        let cacheRoot = root.appendingPathComponent("cache", isDirectory: true)
        // Given: pages 1 and 2 cached (posts 1–20), expired
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), fixturesDirectory: before, pageMaxAge: 0)) {
            server in
            try await Self.warm(server, root: cacheRoot)
            return server.port
        }
        // Given: the same server with post 2 deleted
        let changed = FixtureServerConfiguration(port: port, fixturesDirectory: after, pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(changed, waitingForPort: .seconds(15)) { server in
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: cacheRoot)) { client in
                let feed = client.infinite
                try await feed.loadMore()
                try await feed.loadMore()
                #expect(await feed.loadedPostIDs == Array(1...20))

                // When: page 1 is revalidated
                let first = await feed.revalidateNextExpiredPage()

                // Then: post 2 gone, post 11 moved up from page 2, nothing twice
                #expect(first?.outcome == .replaced)
                #expect(await feed.loadedPostIDs == [1] + Array(3...20))
                #expect(await feed.index(ofPostID: 3) == 1)
                #expect(await feed.posts.map(\.id) == [1] + Array(3...20))

                // When: page 2 is revalidated
                let second = await feed.revalidateNextExpiredPage()

                // Then: post 21 joins it
                #expect(second?.outcome == .replaced)
                #expect(await feed.loadedPostIDs == [1] + Array(3...21))
                #expect(await feed.posts.map(\.title).last == "Post 21")
                #expect(await feed.count == 20)
            }
        }
    }

    /// Opens a feed over pages 1 and 2 cached from `before` (expired), with the server now
    /// serving `after`; revalidates both pages and returns what each found.
    private static func revalidateBothPages(
        before: [Int], after: [Int], root: URL,
        _ body: @Sendable (InfiniteFeed, [PageRevalidation?], RunningFixtureServer) async throws -> Void
    ) async throws {
        let cacheRoot = root.appendingPathComponent("cache", isDirectory: true)
        let old = try Self.fixtures(before, in: root, named: "before")
        let new = try Self.fixtures(after, in: root, named: "after")
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), fixturesDirectory: old, pageMaxAge: 0)) {
            server in
            try await Self.warm(server, root: cacheRoot)
            return server.port
        }
        let changed = FixtureServerConfiguration(port: port, fixturesDirectory: new, pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(changed, waitingForPort: .seconds(15)) { server in
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: cacheRoot)) { client in
                let feed = client.infinite
                try await feed.loadMore()
                try await feed.loadMore()
                #expect(await feed.loadedPostIDs == Array(1...20))
                let first = await feed.revalidateNextExpiredPage()
                let second = await feed.revalidateNextExpiredPage()
                try await body(feed, [first, second], server)
            }
        }
    }

    // The fixture server's cursors are offsets (`nextCursor` of a page is the offset after
    // it), so no revision gives the last page a different cursor: these tests change what
    // the last page says about the rest (`hasMore`, `total`, the next page number).

    @Test("the last page loaded now says there are no more (posts 21–30 gone upstream): the feed ends, no request for page 3")
    func lastPageNowEndsTheList() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-last-ends")
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.revalidateBothPages(before: Array(1...30), after: Array(1...20), root: root) { feed, results, server in
            let keys = results.map { $0?.key }
            #expect(keys == [.number(1), .number(2)])
            #expect(results[1]?.outcome == .replaced)
            #expect(await feed.hasMore == false)
            #expect(await feed.totalCount == 20)
            server.resetRequestCounts()
            let added = try await feed.loadMore()
            #expect(added == 0)
            #expect(FeedTestSupport.listRequests(server) == 0)
            #expect(await feed.loadedPostIDs == Array(1...20))
        }
    }

    @Test("the last page loaded said there were no more and now has a next page (posts 21–30 added upstream): the next load reads it")
    func lastPageNowGoesOn() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-last-goes-on")
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.revalidateBothPages(before: Array(1...20), after: Array(1...30), root: root) { feed, results, _ in
            #expect(results[1]?.outcome == .replaced)
            #expect(await feed.hasMore)
            #expect(await feed.totalCount == 30)
            let added = try await feed.loadMore()
            #expect(added == 10)
            #expect(await feed.loadedPostIDs == Array(1...30))
            #expect(await feed.hasMore == false)
        }
    }

    @Test("new posts at the top: page 1 cached and expired, page 2 fetched fresh; revalidated, page 1's last posts move to page 2 and every post is there once, in the server's order")
    func newPostsAtTheTopKeepEveryPost() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-new-at-top")
        defer { try? FileManager.default.removeItem(at: root) }
        let cacheRoot = root.appendingPathComponent("cache", isDirectory: true)
        let before = try Self.fixtures(Array(1...30), in: root, named: "before")
        let after = try Self.fixtures([101, 102] + Array(1...30), in: root, named: "after")
        // Given: page 1 cached (posts 1–10), expired; page 2 not cached
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), fixturesDirectory: before, pageMaxAge: 0)) {
            server in
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: cacheRoot, servesExpiredPages: false)) { client in
                try await client.infinite.loadMore()
            }
            return server.port
        }
        // Given: the server with posts 101 and 102 added at the top
        let changed = FixtureServerConfiguration(port: port, fixturesDirectory: after, pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(changed, waitingForPort: .seconds(15)) { server in
            try await FeedClient.withFeedClient(Self.configuration(server: server, root: cacheRoot)) { client in
                let feed = client.infinite
                try await feed.loadMore()
                try await feed.loadMore()
                // Page 2 came fresh (posts 9–18): 9 and 10 left out as duplicates of page 1
                #expect(await feed.loadedPostIDs == Array(1...18))
                #expect(await feed.expiredPageCount == 1)

                // When: page 1 is revalidated
                let first = await feed.revalidateNextExpiredPage()

                // Then: 101 and 102 at the top, 9 and 10 on page 2, each post once
                #expect(first?.outcome == .replaced)
                let expected: [PostID] = [101, 102] + Array(1...18)
                #expect(await feed.loadedPostIDs == expected)
                #expect(await feed.posts.map(\.id) == expected)
                #expect(await feed.count == 20)
                #expect(await feed.snapshot().segments.map(\.postIDs) == [[101, 102] + Array(1...8), Array(9...18)])
                #expect(await feed.revalidateNextExpiredPage() == nil)

                // Then: the next page goes on after post 18
                let added = try await feed.loadMore()
                #expect(added == 10)
                #expect(await feed.loadedPostIDs == expected + Array(19...28))
            }
        }
    }

    @Test("infinite: a failed revalidation of a page out of the window does not say the feed is stale")
    func offScreenFailureIsNotStale() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-off-screen")
        defer { try? FileManager.default.removeItem(at: root) }
        let (warmed, port) = try await RunningFixtureServer.withRunning(Self.expiring) { server in
            try await Self.warm(server, root: root)
            return (try Self.configuration(server: server, root: root), server.port)
        }
        var configuration = warmed
        configuration.infinite.maximumResidentPages = 1
        try await FeedClient.withFeedClient(configuration) { client in
            let feed = client.infinite
            // Given: pages 1 and 2 from the cache, only page 1 resident; page 1 revalidated
            try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: port, pageMaxAge: 0), waitingForPort: .seconds(15)) { _ in
                try await feed.loadMore()
                try await feed.loadMore()
                #expect(await feed.residentPageCount == 1)
                let first = await feed.revalidateNextExpiredPage()
                #expect(first == PageRevalidation(key: .number(1), number: 1, outcome: .unchanged))
            }

            // When: the server is gone and page 2, out of the window, is revalidated
            let second = await feed.revalidateNextExpiredPage()

            // Then: it failed, but nothing on screen is out of date
            #expect(second?.key == .number(2))
            let failed: Bool
            if case .failed = second?.outcome { failed = true } else { failed = false }
            #expect(failed)
            #expect(await feed.staleReason == nil)
            #expect(await feed.isShowingStaleContent == false)
        }
    }

    @Test("infinite: the stale reason of a page whose revalidation failed goes once that page revalidates")
    func staleReasonClearsWhenItsPageRevalidates() async throws {
        let root = FeedTestSupport.temporaryDirectory("expired-clears")
        defer { try? FileManager.default.removeItem(at: root) }
        let (warmed, port) = try await RunningFixtureServer.withRunning(Self.expiring) { server in
            try await Self.warm(server, root: root)
            return (try Self.configuration(server: server, root: root), server.port)
        }
        var configuration = warmed
        configuration.infinite.maximumResidentPages = 1
        try await FeedClient.withFeedClient(configuration) { client in
            let feed = client.infinite
            // Given: the server gone; page 1 (resident) fails to revalidate
            try await feed.loadMore()
            try await feed.loadMore()
            let first = await feed.revalidateNextExpiredPage()
            #expect(first?.key == .number(1))
            #expect(await feed.staleReason != nil)

            try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: port, pageMaxAge: 0), waitingForPort: .seconds(15)) { _ in
                // When: the server is back; the reader scrolls to page 2 and back, so page 1
                // comes back into the window expired and is revalidated
                _ = try await feed.posts(in: 10..<20)
                _ = try await feed.posts(in: 0..<10)
                let again = await feed.revalidateNextExpiredPage()

                // Then: page 1 is up to date, and the feed no longer says it is stale
                #expect(again == PageRevalidation(key: .number(1), number: 1, outcome: .unchanged))
                #expect(await feed.staleReason == nil)
            }
        }
    }
}
