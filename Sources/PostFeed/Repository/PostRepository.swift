import Foundation
import PostFeedHTTP

/// Pages and posts of one backend. Both list modes read through one instance.
///
/// Contract: thread-safe (call from any task, any number of times at once); errors are
/// ``RepositoryError`` and name the URL, the page and what to do; a page is decoded with
/// the backend description's conventions, and its `Page.nextKey` is `nil` exactly when
/// one of the backend's end signals says the list is over.
///
/// ``HTTPPostRepository`` is the implementation over HTTP with a disk page cache.
public protocol PostRepository: Sendable {
    /// The backend this repository reads, with its pagination conventions.
    var backend: BackendDescription { get }
    /// Posts per page (1…``BackendDescription/maximumPageSize``).
    var pageSize: Int { get }
    /// The key of the first page.
    var firstPageKey: PageKey { get }
    /// The key of 1-based page `number` when the style allows jumping there directly
    /// (page numbers, offsets); `nil` for cursor and link styles, which must be walked.
    func pageKey(forPageNumber number: Int) -> PageKey?
    /// Fetches one page.
    ///
    /// - Throws: `.pageOutOfRange` for a page past the end, `.network` when nothing came
    ///   back and no cached copy could stand in, `.httpStatus`, `.decoding`, `.notCached`
    ///   (``CachePolicy/cacheOnly``), `.badConfiguration` for a key of another style.
    func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page
    /// Fetches one post by id (the detail view).
    func post(id: PostID, cachePolicy: PageCachePolicy) async throws(RepositoryError) -> Post
    /// Forgets every cached page of this backend (refresh).
    func invalidateCachedPages() async
}

extension PostRepository {
    /// Fetches one page using the cache (``CachePolicy/useCache``), at normal priority.
    public func page(_ key: PageKey) async throws(RepositoryError) -> Page {
        try await page(key, cachePolicy: .useCache, priority: .normal)
    }

    /// Fetches one post using the cache (``CachePolicy/useCache``).
    public func post(id: PostID) async throws(RepositoryError) -> Post {
        try await post(id: id, cachePolicy: .useCache)
    }
}
