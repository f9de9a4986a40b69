import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Cases a review of the reader's-place and real-backend work found; each fails without
/// its fix.
@Suite("Review findings: drift, generations, keys, identities")
struct ReviewFindingsTests {
    @Test("a whole page of posts already loaded is upstream drift, not a stall: the walk goes on")
    func wholePageDrift() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, _ in
            // Given: pages 1 and 2 loaded, and the next key pointing at page 2 again, as when
            // ten posts were added at the top upstream and the old page 2 moved to page 3
            await client.infinite.restore(InfiniteFeed.Snapshot(
                segments: [
                    InfiniteFeed.Segment(key: .number(1), postIDs: Array(1...10)),
                    InfiniteFeed.Segment(key: .number(2), postIDs: Array(11...20)),
                ],
                nextKey: .number(2), totalCount: 247))

            // When
            let added = try await client.infinite.loadMore()

            // Then: page 2 is skipped as drift and page 3 is added
            #expect(added == 10)
            #expect(await client.infinite.loadedPostIDs.suffix(10) == Array(21...30))
            #expect(await client.infinite.stalledWalk == nil)
            #expect(await client.infinite.hasMore)
        }
    }

    @Test("a save after a reset and two other saves merges, although their generation is lower")
    func generationAfterReset() throws {
        let root = FeedTestSupport.temporaryDirectory("generations")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = ListStateStore(cacheRoot: root)
        // Given: this process read generation 5; then a reset, and two saves elsewhere
        let backend = "postfeed http://127.0.0.1:6969/api/posts"
        func state(_ count: Int, anchor: Int) -> ListState {
            var state = ListState(
                mode: .infinite, backendIdentity: backend, pageSize: 10, anchor: ScrollAnchor(postID: PostID(anchor + 1), index: anchor),
                loadedPostIDs: Array(1...count), loadedPageKeys: (1...(count / 10)).map { .number($0) },
                nextPageKey: .number(count / 10 + 1))
            state.loadedPageCounts = Array(repeating: 10, count: count / 10)
            return state
        }
        _ = try store.save(state(20, anchor: 0), basedOn: 4)
        try store.reset(mode: .infinite)
        let first = try store.save(state(30, anchor: 20), basedOn: 0)
        _ = try store.save(state(40, anchor: 30), basedOn: first.generation)

        // When: the first process saves its shorter list
        let outcome = try store.save(state(20, anchor: 5), basedOn: 5)

        // Then: the other's 40 posts are kept, with this saver's place
        #expect(outcome.state.loadedPostIDs.count == 40)
        #expect(outcome.state.anchor?.index == 5)
    }

    @Test("page keys a backend cannot have are refused in a state file", arguments: [PageKey.number(0), .offset(-5)])
    func badPageKeys(key: PageKey) throws {
        var state = ListState(
            mode: .infinite, backendIdentity: "b", pageSize: 10, loadedPostIDs: Array(1...10), loadedPageKeys: [key],
            nextPageKey: .number(2))
        state.loadedPageCounts = [10]
        #expect(throws: DecodingError.self) { try ListState(jsonData: try state.jsonData()) }
    }

    @Test("base URLs that differ only in their query are different backends; the query is not stored")
    func identityWithQuery() throws {
        let a = try BackendDescription.preset(.postfeed, baseURL: try #require(URL(string: "http://h/?feed=a&api_key=SECRET")))
        let b = try BackendDescription.preset(.postfeed, baseURL: try #require(URL(string: "http://h/?feed=b&api_key=SECRET")))
        #expect(a.identity != b.identity)
        #expect(!a.identity.contains("SECRET") && !a.identity.contains("feed="))
        #expect(a.identity == (try BackendDescription.preset(.postfeed, baseURL: try #require(URL(string: "http://h/?feed=a&api_key=SECRET")))).identity)
    }

    @Test("a Link key is stored without credentials and requested with them and the base query")
    func linkKeys() throws {
        var backend = try BackendDescription.preset(.postfeed, baseURL: try #require(URL(string: "http://me:pw@h/?api_key=1")))
        backend.pagination = .linkHeader(limit: "limit")
        let next = try #require(URL(string: "http://me:pw@h/api/posts?page=2&limit=10"))
        let state = ListState(
            mode: .infinite, backendIdentity: backend.identity, pageSize: 10, loadedPostIDs: Array(1...10),
            loadedPageKeys: [.link(nil)], nextPageKey: .link(next))
        let text = String(decoding: try state.jsonData(), as: UTF8.self)
        #expect(!text.contains("pw"), "\(text)")
        let stored = try ListState(jsonData: try state.jsonData())
        guard case .link(let storedURL?) = stored.nextPageKey else { Issue.record("no link key"); return }
        let requested = try backend.pageURL(for: .link(storedURL), pageSize: 10).absoluteString
        #expect(requested.contains("me:pw@") && requested.contains("api_key=1") && requested.contains("page=2"), "\(requested)")
    }
}
