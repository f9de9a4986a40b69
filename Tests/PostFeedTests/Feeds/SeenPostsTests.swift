import Foundation
import PostFeed
import PostFeedServer
import Testing

/// The posts seen (what `--unseen` and browse's `u` hide in later runs) grow only by the
/// posts shown to the reader, never by posts loaded ahead or by a background walk.
@Suite("Seen posts are the posts shown")
struct SeenPostsTests {
    static func seen(_ state: ListState?, upTo last: Int = 60) -> [Int] {
        (1...last).filter { state?.seenPostIDs.contains(PostID($0)) == true }
    }

    @Test("saveInfinite marks only the posts it is told were shown, and keeps those seen before")
    func onlyShownPostsAreSeen() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: { $0.infinite.imagePrefetchCount = 0 }) { client, _, root in
            // Given: five pages loaded (a reader that loads ahead), posts 1–7 on screen
            for _ in 0..<5 { try await client.infinite.loadMore() }
            #expect(await client.infinite.count == 50)

            // When
            try await client.saveInfinite(anchorIndex: 2, shownPostIDs: PostIDSet(1...7))

            // Then: 1–7 seen, not the 43 posts loaded but never shown
            let first = FeedClientReadingTests.infiniteState(root, client)
            #expect(first?.loadedPostIDs.count == 50)
            #expect(Self.seen(first) == Array(1...7))

            // When: the reader scrolls on to 15, and saves again
            try await client.saveInfinite(anchorIndex: 10, shownPostIDs: await client.shownPostIDs(in: 8..<15))
            #expect(Self.seen(FeedClientReadingTests.infiniteState(root, client)) == Array(1...7) + Array(9...15))
        }
    }

    @Test("readInfinite marks the posts it handed over, not what the feed held before the run")
    func readingMarksWhatItHandedOver() async throws {
        let root = FeedTestSupport.temporaryDirectory("seen")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 10) {
                $0.infinite.imagePrefetchCount = 0
            }
            // Given: a browse-like run that loaded three pages and showed posts 1–5
            try await FeedClient.withFeedClient(configuration) { client in
                for _ in 0..<3 { try await client.infinite.loadMore() }
                try await client.saveInfinite(anchorIndex: 0, shownPostIDs: PostIDSet(1...5))
            }
            // When: list reads the next page
            let state = try await FeedClient.withFeedClient(configuration) { client in
                let resumed = try await client.resumeInfinite()
                let reading = await client.readInfinite(pages: 1, after: resumed, onPage: { _ in })
                try await client.savePlace(after: reading)
                return FeedClientReadingTests.infiniteState(root, client)
            }
            // Then: 31–40 were handed over and are seen; 6–30 were never shown
            #expect(Self.seen(state) == Array(1...5) + Array(31...40))
        }
    }
}
