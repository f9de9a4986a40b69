import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Real backends' pagination mistakes, from the fixture server's quirks and flavors: the
/// end of the list is found from explicit facts, a clamped page is past the end, a walk
/// that makes no progress ends with a warning, a base URL's query is kept.
@Suite("Pagination against real backends' conventions and mistakes")
struct RealBackendPaginationTests {
    static func server(_ quirks: PaginationQuirks = .none, flavor: BackendFlavor = .postFeed) -> FixtureServerConfiguration {
        var configuration = FixtureServerConfiguration(flavor: flavor)
        configuration.quirks = quirks
        return configuration
    }

    /// Loads pages until the feed says the end is reached (at most `limit` pages).
    static func walk(_ feed: InfiniteFeed, limit: Int = 60) async throws -> Int {
        var pages = 0
        while await feed.hasMore, pages < limit {
            _ = try await feed.loadMore()
            pages += 1
        }
        return pages
    }

    @Test("hasMore and a total with no Link header: the missing header is no signal, the walk reaches post 247")
    func noLinkHeader() async throws {
        try await FeedTestSupport.withClient(server: Self.server(PaginationQuirks(omitsLinkHeader: true)), pageSize: 20) { client, server, _ in
            _ = try await Self.walk(client.infinite)
            #expect(await client.infinite.count == 247)
            #expect(FeedTestSupport.listRequests(server) == 13, "no request past the last page")
        }
    }

    @Test("json-server 1.x clamps a page past the end: it is past the end all the same")
    func clampedPage() async throws {
        try await FeedTestSupport.withClient(server: Self.server(flavor: .jsonServerV1), pageSize: 10, preset: "json-server-v1") { client, _, _ in
            // Paged: page 11 of 10 is an error, and the feed stays where it was
            try await client.paged.goTo(page: 3)
            await #expect(throws: RepositoryError.self) { try await client.paged.goTo(page: 11) }
            #expect(await client.paged.currentPage == 3)
            #expect(await client.paged.totalPages == 10)
            // Infinite: the walk ends at the 100 posts, not 110 with duplicates
            _ = try await Self.walk(client.infinite)
            #expect(await client.infinite.count == 100)
            #expect(Set(await client.infinite.loadedPostIDs).count == 100)
        }
    }

    @Test("a server that repeats its first page: the walk ends after it with a warning, not 50 requests later")
    func repeatedPage() async throws {
        try await FeedTestSupport.withClient(server: Self.server(PaginationQuirks(repeatsFirstPage: true)), pageSize: 10) { client, server, _ in
            _ = try await Self.walk(client.infinite)
            #expect(await client.infinite.count == 10)
            #expect(await client.infinite.hasMore == false)
            #expect(await client.infinite.stalledWalk?.contains("only posts already loaded") == true)
            #expect(FeedTestSupport.listRequests(server) <= 6, "requests: \(FeedTestSupport.listRequests(server))")
        }
    }

    @Test("a Link next that points to itself: infinite and paged walks end, with a warning")
    func selfLinkingNext() async throws {
        try await FeedTestSupport.withClient(
            server: Self.server(PaginationQuirks(selfLinkingNext: true)), pageSize: 10,
            configure: { $0.backend = Self.linkBackend($0.backend) }
        ) { client, server, _ in
            _ = try await Self.walk(client.infinite)
            #expect(await client.infinite.count == 10)
            #expect(await client.infinite.stalledWalk != nil)
            // Paged: the last page is the last one reached before the next link looped back
            try await client.paged.last()
            #expect(await client.paged.currentPage <= 2)
            #expect(await client.paged.stalledWalk != nil)
            #expect(FeedTestSupport.listRequests(server) < 10, "requests: \(FeedTestSupport.listRequests(server))")
        }
    }

    @Test("a base URL with a query keeps it on every request: page, post, image")
    func baseURLWithQuery() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            let root = FeedTestSupport.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let base = try #require(URL(string: server.baseURL.absoluteString + "/?api_key=s3cret&v=2"))
            var configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 5)
            configuration.backend = try BackendDescription.preset(.postfeed, baseURL: base)
            try await FeedClient.withFeedClient(configuration) { client in
                _ = try await client.infinite.loadMore()
                let posts = try await client.infinite.posts(in: 0..<5)
                #expect(posts.count == 5)
                _ = try await client.repository.post(id: 3, cachePolicy: .reload)
                let image = try #require(posts.compactMap(\.imageURL).first)
                #expect(image.contains("/images/") && image.hasSuffix("?api_key=s3cret&v=2"), "\(image)")
                _ = await client.image(for: posts[0])
            }
            let requests = server.recordedRequests
            let askedForPage1 = requests.contains { $0.path == "/api/posts" && $0.query?.hasPrefix("api_key=s3cret&v=2&page=1") == true }
            #expect(askedForPage1, "\(requests)")
            let askedForPost3 = requests.contains { $0.path == "/api/posts/3" }
            #expect(askedForPost3, "\(requests)")
            let requestLines = requests.map { "\($0.path)?\($0.query ?? "")" }
            let allCarryKey = requests.allSatisfy { $0.query?.contains("api_key=s3cret") == true }
            #expect(allCarryKey, "\(requestLines)")
        }
    }

    @Test("a base URL with a fragment is refused")
    func fragmentRefused() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/api#x"))
        #expect(throws: BackendConfigurationError.self) { try BackendDescription.preset(.postfeed, baseURL: url) }
    }

    /// The postfeed API paged by its `Link` header (GitHub style).
    static func linkBackend(_ base: BackendDescription) -> BackendDescription {
        var backend = base
        backend.pagination = .linkHeader(limit: "limit")
        backend.endSignals = [.linkWithoutNext]
        return backend
    }
}
