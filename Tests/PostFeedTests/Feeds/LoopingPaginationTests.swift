import Foundation
@testable import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

/// The client's own repository against the fixture server, with page 2's next key
/// pointing back at page 2: a backend whose pagination loops after a page of new posts.
private struct LoopingAtPageTwo: ForwardingRepository {
    let base: any PostRepository

    func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page {
        var page = try await base.page(key, cachePolicy: cachePolicy, priority: priority)
        // Page 2 is the second page asked for: its posts start at post 11.
        if page.posts.first?.id == 11 { page.nextKey = key }
        return page
    }
}

@Suite("InfiniteFeed: pagination that loops")
struct LoopingPaginationTests {
    /// Walks a feed over `LoopingAtPageTwo` until it adds nothing.
    static func walk(_ client: FeedClient) async throws -> InfiniteFeed {
        var configuration = client.infinite.configuration
        configuration.prefetchNextPage = false
        let feed = InfiniteFeed(repository: LoopingAtPageTwo(base: client.repository), configuration: configuration)
        var rounds = 0
        while try await feed.loadMore() > 0, rounds < 10 { rounds += 1 }
        return feed
    }

    @Test("a next page number already walked: the page that loops is kept, then the list ends with a warning")
    func loopingPageNumberKeepsThePage() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, _ in
            let feed = try await Self.walk(client)
            #expect(await feed.loadedPostIDs == Array(1...20), "posts 11–20 were fetched and dropped")
            #expect(await feed.hasMore == false)
            let warning = try #require(await feed.stalledWalk)
            #expect(warning.contains("already read") && warning.contains("after 20 posts"), "\(warning)")
        }
    }

    @Test("a cursor that repeats itself: the page that repeats it is kept, then the list ends with a warning")
    func repeatingCursorKeepsThePage() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, preset: "postfeed-cursor") { client, _, _ in
            let feed = try await Self.walk(client)
            #expect(await feed.loadedPostIDs == Array(1...20), "posts 11–20 were fetched and dropped")
            #expect(await feed.hasMore == false)
            let warning = try #require(await feed.stalledWalk)
            #expect(warning.contains("loops") && warning.contains("after 20 posts"), "\(warning)")
        }
    }

    @Test("ordinals in the repeated-pages warning", arguments: [
        (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
        (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th"),
    ])
    func ordinals(number: Int, expected: String) {
        #expect(InfiniteFeed.ordinal(number) == expected)
    }

    @Test("a server repeating its first page: the warning says '3rd page in a row'")
    func thirdPageInARow() async throws {
        try await FeedTestSupport.withClient(server: RealBackendPaginationTests.server(PaginationQuirks(repeatsFirstPage: true))) {
            client, _, _ in
            while try await client.infinite.loadMore() > 0 {}
            let warning = try #require(await client.infinite.stalledWalk)
            #expect(warning.contains("is the 3rd page in a row"), "\(warning)")
        }
    }
}
