import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 15, case 3, through the feeds: a server that answers every page with the whole
/// list (247 posts) whatever page and page size were asked.
@Suite("Feeds over a server that ignores the page size")
struct IgnoredPageSizeFeedTests {
    static func server(servedPostCount: Int? = nil) -> FixtureServerConfiguration {
        var configuration = FixtureServerConfiguration()
        configuration.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: servedPostCount)
        return configuration
    }

    @Test("infinite: the first 10 posts, then the repeated page ends the walk at once, with a warning")
    func infiniteWalk() async throws {
        try await FeedTestSupport.withClient(server: Self.server(), pageSize: 10) { client, server, _ in
            // When
            let pages = try await RealBackendPaginationTests.walk(client.infinite)

            // Then
            #expect(await client.infinite.loadedPostIDs == Array(1...10))
            #expect(await client.infinite.hasMore == false)
            #expect(pages <= 2)
            #expect(FeedTestSupport.listRequests(server) == 2, "page 2 is enough to know: \(FeedTestSupport.listRequests(server))")
            let stall = try #require(await client.infinite.stalledWalk)
            #expect(stall.contains("ignores the page size") && stall.contains("the list ends here after 10 posts"), "\(stall)")
            let warning = try #require(await client.infinite.pageSizeWarning)
            #expect(warning.contains("247 posts") && warning.contains("showing the first 10"), "\(warning)")
        }
    }

    @Test("paged: page 1 is the first 10 posts; page 2 repeats it, so it is past the end and the feed stays on page 1")
    func pagedJump() async throws {
        try await FeedTestSupport.withClient(server: Self.server(), pageSize: 10) { client, _, _ in
            // Given
            let first = try await client.paged.goTo(page: 1)
            #expect(first.posts.map(\.id) == Array(1...10))
            #expect(first.sentPostCount == 247)
            #expect(await client.paged.pageSizeWarning?.contains("ignores the page size") == true)

            // When
            let error = await #expect(throws: RepositoryError.self) { try await client.paged.goTo(page: 2) }

            // Then
            #expect(error?.code == .pageOutOfRange)
            #expect(error?.description.contains("page 2") == true && error?.description.contains("same posts as page 1") == true, "\(String(describing: error))")
            #expect(await client.paged.currentPage == 1)
            #expect(await client.paged.posts.map(\.id) == Array(1...10))
            #expect(await client.paged.totalPages == 1)
        }
    }

    @Test("paged, jumping straight to page 3 of a fresh feed: refused the same way")
    func pagedJumpFresh() async throws {
        try await FeedTestSupport.withClient(server: Self.server(), pageSize: 10) { client, _, _ in
            let error = await #expect(throws: RepositoryError.self) { try await client.paged.goTo(page: 3) }
            #expect(error?.code == .pageOutOfRange)
            #expect(error?.description.contains("ignores the page size") == true, "\(String(describing: error))")
            #expect(await client.paged.currentPage == 0)
        }
    }

    @Test("link style takes the server's page as long as it is, and lists no post twice")
    func linkStyle() async throws {
        try await FeedTestSupport.withClient(
            server: Self.server(servedPostCount: 30), pageSize: 10,
            configure: { $0.backend = RealBackendPaginationTests.linkBackend($0.backend) }
        ) { client, server, _ in
            _ = try await RealBackendPaginationTests.walk(client.infinite)
            let ids = await client.infinite.loadedPostIDs
            #expect(ids == Array(1...30), "the page is not cut in link style")
            #expect(await client.infinite.hasMore == false)
            #expect(await client.infinite.stalledWalk != nil)
            #expect(FeedTestSupport.listRequests(server) <= 5, "\(FeedTestSupport.listRequests(server))")
        }
    }
}
