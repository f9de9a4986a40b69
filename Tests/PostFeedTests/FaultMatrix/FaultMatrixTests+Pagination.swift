import Foundation
import PostFeed
import PostFeedServer
import Testing

/// The fault matrix, pagination rows: real backends' paging mistakes from the fixture
/// server's quirks and flavors, read through `client.readInfinite` and `client.readPages`
/// as `postfeed list` and `postfeed page` do.
extension FaultMatrixTests {
    /// Reads the infinite feed from the top, up to `pages` pages.
    static func readAll(_ client: FeedClient, pages: Int = 40) async throws -> InfiniteReading {
        let resumed = try await client.resumeInfinite()
        return await client.readInfinite(pages: pages, after: resumed)
    }

    /// The `postfeed` preset with only the short-page heuristic to find the end.
    static func shortPageOnly(_ configuration: inout FeedClient.Configuration) {
        configuration.backend.endSignals = [.shortPage]
        configuration.backend.total = TotalSource(header: nil, bodyField: nil)
    }

    // MARK: Short pages

    @Test("pages: with only the short-page heuristic, the short last page ends the list; nothing asked past it")
    func pageShortLastPage() async throws {
        try await FaultMatrix.withClient(pageSize: 20, configure: Self.shortPageOnly) { client, server in
            let reading = try await Self.readAll(client)
            #expect(reading.failure == nil, "\(String(describing: reading.failure))")
            #expect(reading.end == 247)
            #expect(reading.hasMore == false)
            #expect(server.requestCount(path: "/api/posts") == 13, "247 posts are 13 pages of 20, the last one short")
        }
    }

    @Test("pages: with only the short-page heuristic, a full last page is followed by a 404 that ends the list, not an error")
    func pageFullLastPage() async throws {
        try await FaultMatrix.withClient(pageSize: 19, configure: Self.shortPageOnly) { client, server in
            let reading = try await Self.readAll(client)
            #expect(reading.failure == nil, "\(String(describing: reading.failure))")
            #expect(reading.end == 247, "247 posts are exactly 13 pages of 19")
            #expect(reading.hasMore == false)
            // 13 pages and the 404 past them; the 404 is not remembered, so the page
            // prefetch and the load that follows it both ask for page 14.
            let asked = server.recordedRequests.filter { $0.path == "/api/posts" }.compactMap(\.query)
            #expect(Set(asked).count == 14, "\(asked)")
            #expect(asked.count <= 15, "\(asked)")
        }
    }

    @Test("pages: hasMore and a total but no Link header: the missing header is no signal, the walk reaches post 247")
    func pageMissingLinkHeader() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(quirks: PaginationQuirks(omitsLinkHeader: true)), pageSize: 20) {
            client, server in
            let reading = try await Self.readAll(client)
            #expect(reading.failure == nil, "\(String(describing: reading.failure))")
            #expect(reading.end == 247)
            #expect(reading.hasMore == false)
            #expect(server.requestCount(path: "/api/posts") == 13)
        }
    }

    // MARK: Clamped pages

    /// Jumps to page 11 of 10: nothing shown, `.pageOutOfRange` worded for the reader with
    /// the page and the pages there are, on one line.
    static func expectPageElevenPastTheEnd(_ client: FeedClient) async {
        do {
            try await client.readPages(.number(11)) { reading in
                Issue.record("page 11 was shown: posts \(reading.posts.map(\.id))")
            }
            Issue.record("page 11 of 10 did not fail")
        } catch let error as RepositoryError {
            #expect(error.code == .pageOutOfRange)
            let text = error.description
            #expect(text.contains("page 11") && text.contains("past the end") && text.contains("try 1…10"), "\(text)")
            #expect(!text.contains("\n"))
        } catch {
            Issue.record("page 11 failed with \(error), not a RepositoryError")
        }
    }

    @Test("pages: json-server 1.x clamps page 11 of 10 to page 10: page 11 is past the end, named, and the saved page stays")
    func pageClamped() async throws {
        try await FaultMatrix.withClient(
            FaultMatrix.server(flavor: .jsonServerV1), pageSize: 10, preset: "json-server-v1"
        ) { client, server in
            try await client.readPages(.number(3)) { #expect($0.page == 3) }
            await Self.expectPageElevenPastTheEnd(client)
            try await client.readPages(.saved) { #expect($0.page == 3, "the failed jump changed the saved page") }
            // Infinite: 100 posts, none twice, and no page numbered past the end.
            let reading = try await Self.readAll(client)
            #expect(reading.end == 100)
            #expect(Set(await client.infinite.loadedPostIDs).count == 100)
        }
    }

    @Test("pages: json-server 1.x, a fresh jump to page 11 of 10: the clamped answer is past the end, named; nothing saved")
    func pageClampedFreshJump() async throws {
        try await FaultMatrix.withClient(
            FaultMatrix.server(flavor: .jsonServerV1), pageSize: 10, preset: "json-server-v1"
        ) { client, server in
            await Self.expectPageElevenPastTheEnd(client)
            #expect(server.requestCount(path: "/posts") >= 1, "the clamped page was asked for")
            try await client.readPages(.saved) { #expect($0.page == 1, "the failed jump saved a place") }
        }
    }

    // MARK: Ignored page size

    @Test("pages: a server that sends all 247 posts for every page: page 1 shows 10 with a warning, page 2 is refused, the walk ends")
    func pageIgnoredPageSize() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(quirks: PaginationQuirks(ignoresPageSize: true))) { client, server in
            try await client.readPages(.number(1)) { reading in
                #expect(reading.posts.map(\.id) == Array(1...10))
                #expect(reading.firstPosition == 1)
            }
            let warning = try #require(await client.paged.pageSizeWarning)
            #expect(warning.contains("247 posts") && warning.contains("ignores the page size"), "\(warning)")
            do {
                try await client.readPages(.number(2)) { reading in
                    Issue.record("page 2 renumbered the same posts: \(reading.posts.map(\.id).prefix(5))…")
                }
                Issue.record("page 2 did not fail")
            } catch let error as RepositoryError {
                #expect(error.code == .pageOutOfRange)
                #expect(error.description.contains("page 2") && error.description.contains("same posts as page 1"), "\(error)")
            }
            server.resetRequestCounts()
            let reading = try await Self.readAll(client)
            #expect(await client.infinite.loadedPostIDs == Array(1...10))
            #expect(reading.hasMore == false)
            #expect(await client.infinite.stalledWalk?.contains("ignores the page size") == true)
            #expect(server.requestCount(path: "/api/posts") <= 2, "\(server.requestCount(path: "/api/posts"))")
        }
    }

    // MARK: Walks without progress

    @Test("pages: a Link next pointing to itself ends the walk with a warning after one page")
    func pageSelfLinkingNext() async throws {
        try await FaultMatrix.withClient(
            FaultMatrix.server(quirks: PaginationQuirks(selfLinkingNext: true)),
            configure: { $0.backend = RealBackendPaginationTests.linkBackend($0.backend) }
        ) { client, server in
            let reading = try await Self.readAll(client)
            #expect(reading.failure == nil, "\(String(describing: reading.failure))")
            #expect(reading.end == 10)
            #expect(reading.hasMore == false)
            let warning = try #require(await client.infinite.stalledWalk)
            #expect(warning.contains("already read") && warning.contains("loops"), "\(warning)")
            #expect(server.requestCount(path: "/api/posts") <= 2, "\(server.requestCount(path: "/api/posts"))")
        }
    }

    @Test("pages: a server answering page 1 for every page ends the walk with a warning, not 50 requests later")
    func pageRepeatedFirstPage() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(quirks: PaginationQuirks(repeatsFirstPage: true))) { client, server in
            let reading = try await Self.readAll(client)
            #expect(reading.end == 10)
            #expect(reading.hasMore == false)
            #expect(await client.infinite.stalledWalk?.contains("only posts already loaded") == true)
            #expect(server.requestCount(path: "/api/posts") <= 6, "\(server.requestCount(path: "/api/posts"))")
        }
    }

    // MARK: Base URL with a query

    @Test("pages and images: a base URL's query (an API key) is kept on every request, the posts path in the path")
    func baseURLWithQuery() async throws {
        try await RunningFixtureServer.withRunning(FaultMatrix.server()) { server in
            let root = FeedTestSupport.temporaryDirectory("fault-matrix")
            defer { try? FileManager.default.removeItem(at: root) }
            let base = try #require(URL(string: server.baseURL.absoluteString + "/?api_key=s3cret&v=2"))
            var configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 5)
            configuration.backend = try BackendDescription.preset("postfeed", baseURL: base)
            // Two pages asked for, two requested: no prefetch of a third racing the end.
            configuration.infinite.prefetchNextPage = false
            FaultMatrix.tighten(&configuration)
            try await FeedClient.withFeedClient(configuration) { client in
                let reading = try await Self.readAll(client, pages: 2)
                #expect(reading.end == 10)
                let posts = try await client.infinite.posts(in: 0..<1)
                let first = try #require(posts.first)
                let image = try #require(await client.image(for: first))
                #expect(image.error == nil, "\(String(describing: image.error))")
            }
            let requests = server.recordedRequests
            let pages = requests.filter { $0.path == "/api/posts" }
            #expect(pages.count == 2)
            let pageQueries = pages.map { $0.query ?? "" }
            let pagesCarryKey = pages.allSatisfy { $0.query?.hasPrefix("api_key=s3cret&v=2&page=") == true }
            #expect(pagesCarryKey, "\(pageQueries)")
            let images = requests.filter { $0.path.hasPrefix("/images/") }
            #expect(!images.isEmpty, "the feed prefetches the page's images too")
            let imageQueries = images.map { $0.query ?? "" }
            let imagesCarryKey = images.allSatisfy { $0.query == "api_key=s3cret&v=2" }
            #expect(imagesCarryKey, "\(imageQueries)")
        }
    }
}
