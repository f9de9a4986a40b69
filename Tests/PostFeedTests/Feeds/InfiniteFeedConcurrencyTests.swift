import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

/// Calls into `InfiniteFeed` that overlap: cancelled loads, and a list replaced
/// (refresh, restore) while a page is on its way. Each page answer is delayed by the
/// fixture server, so the overlap is certain, not a matter of luck.
@Suite("InfiniteFeed: cancellation and overlapping calls")
struct InfiniteFeedConcurrencyTests {
    /// A client whose every answer takes `milliseconds`, with no next-page prefetch (each
    /// test decides when pages are requested).
    static func withSlowClient(
        _ milliseconds: Int, residentPages: Int? = nil,
        _ body: (FeedClient, RunningFixtureServer) async throws -> Void
    ) async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(milliseconds))),
            configure: {
                $0.infinite.prefetchNextPage = false
                $0.infinite.maximumResidentPages = residentPages
            }
        ) { client, server, _ in try await body(client, server) }
    }

    @Test("A cancelled loadMore throws .cancelled at once; the page it was loading is never added")
    func cancelledLoadAddsNothing() async throws {
        try await Self.withSlowClient(600) { client, _ in
            let feed = client.infinite
            let load = Task { try await feed.loadMore() }
            try await Task.sleep(for: .milliseconds(150))

            load.cancel()

            let error = await #expect(throws: RepositoryError.self) { try await load.value }
            #expect(error?.code == .cancelled)
            #expect(await feed.isLoadingMore == false)
            // Past the time the server would have answered: still nothing was added.
            try await Task.sleep(for: .milliseconds(900))
            #expect(await feed.count == 0)
            #expect(try await feed.loadMore() == 10)
            #expect(await feed.loadedPostIDs == Array(1...10))
        }
    }

    @Test("One of two callers cancelling leaves the shared load to the other")
    func oneCallerCancels() async throws {
        try await Self.withSlowClient(400) { client, server in
            let feed = client.infinite
            let leaving = Task { try await feed.loadMore() }
            let staying = Task { try await feed.loadMore() }
            try await Task.sleep(for: .milliseconds(100))

            leaving.cancel()

            let error = await #expect(throws: RepositoryError.self) { try await leaving.value }
            #expect(error?.code == .cancelled)
            #expect(try await staying.value == 10)
            #expect(FeedTestSupport.listRequests(server) == 1)
        }
    }

    @Test("A page that lands after refresh replaced the list is dropped; the load continues the new list")
    func loadOverlappingRefreshLeavesNoGap() async throws {
        try await Self.withSlowClient(300) { client, _ in
            // Given posts 1–30, the next page being page 4
            let feed = client.infinite
            for _ in 0..<3 { try await feed.loadMore() }
            try #require(await feed.loadedPostIDs == Array(1...30))

            // When a load starts while refresh waits for page 1: page 4 arrives after it
            let refresh = Task { try await feed.refresh() }
            try await Task.sleep(for: .milliseconds(100))
            let load = Task { try await feed.loadMore() }
            try await refresh.value
            let added = try await load.value

            // Then the new list goes on with page 2, without a gap
            #expect(added == 10)
            #expect(await feed.loadedPostIDs == Array(1...20))
            try await feed.loadMore()
            #expect(await feed.loadedPostIDs == Array(1...30))
        }
    }

    @Test("A restore while a dropped page loads back neither crashes nor writes into the restored list")
    func restoreDuringPageReload() async throws {
        try await Self.withSlowClient(300, residentPages: 1) { client, _ in
            // Given posts 1–30 with only the last page in memory, and no page cached
            let feed = client.infinite
            for _ in 0..<3 { try await feed.loadMore() }
            try #require(await feed.residentPageCount == 1)
            let saved = await feed.snapshot()
            await feed.repository.invalidateCachedPages()

            // When the list is restored to its first page while page 2 loads back
            let read = Task { try await feed.posts(in: 10..<20) }
            try await Task.sleep(for: .milliseconds(100))
            let firstPageOnly = InfiniteFeed.Snapshot(
                segments: Array(saved.segments.prefix(1)), nextKey: saved.segments[1].key, totalCount: saved.totalCount)
            await feed.restore(firstPageOnly)

            // Then the read answers for the restored list (which ends at post 10)
            #expect(try await read.value.isEmpty)
            #expect(await feed.loadedPostIDs == Array(1...10))
            #expect(try await feed.posts(in: 0..<10).map(\.id) == Array(1...10))
        }
    }
}
