import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

/// The client's own repository, whose revalidating reads (`.useCache`) hold their answer,
/// already fetched from the fixture server, until the test releases it: a revalidation
/// stays in flight while the test reloads. A held read whose task was cancelled meanwhile
/// ends as a cancelled transfer does.
private final class HeldRevalidations: ForwardingRepository {
    let base: any PostRepository
    let gate = Gate()
    init(_ base: any PostRepository) { self.base = base }

    func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page {
        let page = try await base.page(key, cachePolicy: cachePolicy, priority: priority)
        guard cachePolicy == .useCache else { return page }
        await gate.hold()
        if Task.isCancelled { throw RepositoryError(.cancelled, url: nil, page: key, message: "page \(key) cancelled") }
        return page
    }

    /// Reads waiting to be let through.
    actor Gate {
        private var held: [CheckedContinuation<Void, Never>] = []
        private var watchers: [CheckedContinuation<Void, Never>] = []

        func hold() async {
            await withCheckedContinuation { continuation in
                held.append(continuation)
                watchers.forEach { $0.resume() }
                watchers = []
            }
        }

        /// Returns once a read is held.
        func untilHeld() async {
            guard held.isEmpty else { return }
            await withCheckedContinuation { watchers.append($0) }
        }

        func release() {
            held.forEach { $0.resume() }
            held = []
        }
    }
}

@Suite("Paged revalidation in flight across a reload")
struct RevalidationAcrossReloadTests {
    /// Caches pages 1 and 2 (expired at once), then runs `body` with a paged feed that serves
    /// expired pages over the same cache, its revalidations held.
    private static func withHeldFeed(
        _ name: String, _ body: @Sendable (PagedFeed, HeldRevalidations.Gate, RunningFixtureServer) async throws -> Void
    ) async throws {
        let root = FeedTestSupport.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: 0)) { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root) { configuration in
                configuration.infinite = InfiniteFeed.Configuration(imagePrefetchCount: 0, prefetchNextPage: false)
                configuration.paged = PagedFeed.Configuration(prefetchNeighbour: false, prefetchImages: false)
            }
            try await FeedClient.withFeedClient(configuration) { client in
                try await client.infinite.loadMore()
                try await client.infinite.loadMore()
            }
            try await FeedClient.withFeedClient(configuration) { client in
                let held = HeldRevalidations(client.paged.repository)
                let feed = PagedFeed(
                    repository: held,
                    configuration: PagedFeed.Configuration(prefetchNeighbour: false, prefetchImages: false, servesExpiredPages: true))
                try await body(feed, held.gate, server)
            }
        }
    }

    @Test("a revalidation answered with an older copy after a reload leaves the reloaded posts")
    func keepsReloadedPosts() async throws {
        try await Self.withHeldFeed("reload-keeps") { feed, gate, server in
            // Given: page 1 shown from the cache, expired; revised upstream; its revalidation
            // has its answer (revision 1) but is held
            try await feed.goTo(page: 1)
            try #require(await feed.expiredPageCount == 1)
            server.revise(postIDs: [1])
            let revalidation = Task { await feed.revalidateNextExpiredPage() }
            await gate.untilHeld()

            // When: post 1 changes again and the reader reloads
            server.revise(postIDs: [1])
            try await feed.refresh()
            let reloaded = await feed.posts
            #expect(reloaded.first?.title.hasPrefix("(revision 2) ") == true)

            // Then: the older answer arriving after the reload replaces nothing
            await gate.release()
            let result = await revalidation.value
            #expect(result?.outcome == .unchanged)
            #expect(await feed.posts == reloaded)
            #expect(await feed.expiredPageCount == 0)
        }
    }

    @Test("a revalidation cancelled after a reload does not queue its page again")
    func cancelledDoesNotRequeue() async throws {
        try await Self.withHeldFeed("reload-cancel") { feed, gate, _ in
            // Given: page 1 shown from the cache, expired; its revalidation held
            try await feed.goTo(page: 1)
            try #require(await feed.expiredPageCount == 1)
            let revalidation = Task { await feed.revalidateNextExpiredPage() }
            await gate.untilHeld()

            // When: the reader reloads, then the revalidation is cancelled
            try await feed.refresh()
            #expect(await feed.expiredPageCount == 0)
            revalidation.cancel()
            await gate.release()
            let result = await revalidation.value

            // Then: nothing queued again
            #expect(result == nil)
            #expect(await feed.expiredPageCount == 0)
        }
    }
}
