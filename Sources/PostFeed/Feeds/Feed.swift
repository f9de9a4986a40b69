/// What both list modes share: ``InfiniteFeed`` (pages appended as the reader nears the
/// end) and ``PagedFeed`` (one numbered page at a time), over one repository.
///
/// Refresh has one meaning in both: back to the first page from the network, the page
/// cache invalidated once it arrived (cached pages are revalidated when next read), and on
/// failure the posts shown stay and the error is thrown (call again to retry).
///
/// ```swift
/// try await client.feed(for: .paged).refresh()
/// ```
public protocol Feed: Actor {
    /// Total number of posts, when the backend said.
    var totalCount: Int? { get }
    /// Pages shown from the cache past their expiry, waiting to be checked with the server.
    var expiredPageCount: Int { get }
    /// The ids of the posts the feed holds, in the backend's order: the loaded posts
    /// (infinite), the current page's (paged).
    var loadedPostIDs: [PostID] { get }
    /// Back to the first page from the network (see the protocol's discussion).
    func refresh() async throws(RepositoryError)
    /// Waits for prefetches in flight (the next page, images) to land in the caches.
    func finishPrefetching() async
}

extension InfiniteFeed: Feed {}

extension PagedFeed: Feed {
    /// The current page's post ids.
    public var loadedPostIDs: [PostID] { posts.map(\.id) }
}

extension FeedClient {
    /// The feed of `mode`: ``infinite`` or ``paged``.
    public func feed(for mode: ListMode) -> any Feed {
        switch mode {
        case .infinite: infinite
        case .paged: paged
        }
    }
}
