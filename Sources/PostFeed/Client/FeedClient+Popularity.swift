import Foundation
import Synchronization

extension FeedClient {
    /// The whole feed ordered by popularity (see ``popularityOrder(maximumPosts:progress:)``).
    public struct PopularityOrder: Sendable {
        /// One post of the order.
        public struct Entry: Sendable, Equatable {
            /// The post.
            public let post: Post
            /// Its 0-based position in the backend's list (post numbers are this plus one;
            /// posts hidden by ``InfiniteFeed/Configuration/unseenOnly`` keep theirs).
            public let position: Int

            /// `post` at 0-based `position` of the backend's list.
            public init(post: Post, position: Int) {
                self.post = post
                self.position = position
            }
        }

        /// Most popular first; equal popularity, and none (which counts lowest), in the
        /// backend's order.
        public var entries: [Entry]
        /// Why the catalog stopped loading before the end, when a page after the first
        /// failed: the order covers the posts loaded until then. `nil` when it is whole.
        public var stoppedEarly: RepositoryError?
        /// The post count the load stopped at when the feed went on past the limit (a
        /// backend that never says it ended); `nil` when the whole feed was loaded.
        public var cappedAt: Int?
        /// Notices from reading the saved state (posts shown in earlier runs), one line each.
        public var notices: [String]

        /// Sorts `entries` most popular first, ties in the backend's order (``PopularityRanking``).
        public static func ordered(_ entries: [Entry]) -> [Entry] {
            PopularityRanking.ordered(entries) { ($0.post.popularity, $0.position) }
        }
    }

    /// The whole feed, most popular first — the library's one meaning of "popularity".
    ///
    /// The infinite feed starts over from the top (``restartInfinite()``: the saved place
    /// stays on disk, posts shown in earlier runs stay known for
    /// ``InfiniteFeed/Configuration/unseenOnly``), then every page is loaded, page cache
    /// first, calling `progress` with the posts loaded so far and the total when the
    /// backend says it, before each page. A failure on the first page is thrown; a later
    /// one ends the catalog there (``PopularityOrder/stoppedEarly``). Cancelling the task
    /// throws a `.cancelled` error.
    /// A feed that goes on past `maximumPosts` (a backend that never signals its end;
    /// default ``InfiniteFeed/maximumCatalogPosts``, where browse's background walk stops too) is
    /// ordered over its first pages that hold that many posts: ``PopularityOrder/cappedAt``.
    public func popularityOrder(
        maximumPosts: Int = InfiniteFeed.maximumCatalogPosts,
        progress: @Sendable (_ loaded: Int, _ total: Int?) -> Void = { _, _ in }
    ) async throws(RepositoryError) -> PopularityOrder {
        let restarted = await restartInfinite()
        let feed = infinite
        var stoppedEarly: RepositoryError?
        var cappedAt: Int?
        while await feed.hasMore {
            if await feed.count >= maximumPosts {
                cappedAt = await feed.count
                break
            }
            progress(await feed.count, await feed.totalCount)
            do {
                _ = try await feed.loadMore()
            } catch {
                guard error.code != .cancelled, await feed.count > 0 else { throw error }
                stoppedEarly = error
                break
            }
        }
        let count = await feed.count
        let posts = try await feed.posts(in: 0..<count)
        let positions = await feed.listPositions(in: 0..<count)
        let entries = zip(posts, positions).map { PopularityOrder.Entry(post: $0, position: $1) }
        return PopularityOrder(
            entries: PopularityOrder.ordered(entries), stoppedEarly: stoppedEarly, cappedAt: cappedAt, notices: restarted.notices)
    }
}

extension FeedClient {
    // MARK: How far the popularity order was shown

    /// The popularity order's progress saved for this backend (``PopularityOrderState``); an
    /// unusable file is set aside and reported in ``ListStateStore/PopularityOrderLoad/problem``.
    /// The next ``savePopularityOrder(_:)`` builds on the generation loaded here.
    public func loadPopularityOrder() -> ListStateStore.PopularityOrderLoad {
        let load = stateStore.loadPopularityOrder(backendIdentity: backend.identity)
        popularityGeneration.withLock { $0 = load.state.generation }
        return load
    }

    /// Saves how far the popularity order was shown, merged with another process's save
    /// (read-modify-write under the state lock). Returns the state written.
    @discardableResult
    public func savePopularityOrder(_ state: PopularityOrderState) throws(ListStateError) -> PopularityOrderState {
        let written = try stateStore.savePopularityOrder(state, basedOn: popularityGeneration.withLock { $0 })
        popularityGeneration.withLock { $0 = written.generation }
        return written
    }

    /// Posts shown in the popularity order: seen, as the infinite feed's seen posts are
    /// (an unusable file counts for none and is left for the popularity order to report).
    var popularityShownPostIDs: PostIDSet {
        PostIDSet(stateStore.loadPopularityOrder(backendIdentity: backend.identity, settingAside: false).state.shownPostIDs)
    }
}
