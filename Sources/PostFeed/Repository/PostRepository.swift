import Foundation
import PostFeedHTTP

/// How a page request may use the page cache.
public enum PageCachePolicy: Sendable, Hashable {
    /// A fresh cached page is returned without a request; an expired one is revalidated
    /// with `If-None-Match`; when the network fails a cached page is returned marked stale.
    case useCache
    /// Always ask the server (conditionally when a cached copy exists); fall back to the
    /// stale cached page when the network fails.
    case revalidate
    /// Ask the server unconditionally and replace the cached page (refresh).
    case reload
    /// Never touch the network: the cached page or `RepositoryError` `.notCached`.
    case cacheOnly
}

/// Pages and posts of one backend. Both list modes read through one instance.
///
/// Contract: thread-safe; errors are ``RepositoryError`` and name the URL, the page and
/// what to do; a page is decoded with the backend description's conventions.
public protocol PostRepository: Sendable {
    /// The backend this repository reads, with its pagination conventions.
    var backend: BackendDescription { get }
    /// Posts per page (1…100).
    var pageSize: Int { get }
    /// The key of the first page.
    var firstPageKey: PageKey { get }
    /// The key of 1-based page `number` when the style allows jumping there directly
    /// (page numbers, offsets); `nil` for cursor and link styles, which must be walked.
    func pageKey(forPageNumber number: Int) -> PageKey?
    /// Fetches one page.
    func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page
    /// Fetches one post by id (the detail view).
    func post(id: Int, cachePolicy: PageCachePolicy) async throws(RepositoryError) -> Post
    /// Forgets every cached page of this backend (refresh).
    func invalidateCachedPages() async
}
