import Foundation
import PostFeedHTTP

/// The `--offline` repository: every request is answered from the page cache alone
/// (`.cacheOnly`), expired or not, and a page the cache lacks is a `.notCached` error.
struct CacheOnlyRepository: PostRepository {
    let base: any PostRepository

    init(_ base: any PostRepository) { self.base = base }

    var backend: BackendDescription { base.backend }
    var pageSize: Int { base.pageSize }
    var firstPageKey: PageKey { base.firstPageKey }

    func pageKey(forPageNumber number: Int) -> PageKey? { base.pageKey(forPageNumber: number) }

    func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page {
        try await base.page(key, cachePolicy: .cacheOnly, priority: priority)
    }

    func post(id: Int, cachePolicy: PageCachePolicy) async throws(RepositoryError) -> Post {
        try await base.post(id: id, cachePolicy: .cacheOnly)
    }

    /// Offline, nothing is invalidated: the cache is all there is.
    func invalidateCachedPages() async {}
}
