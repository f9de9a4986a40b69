import PostFeedHTTP

@testable import PostFeed

/// A repository that hands everything to `base`: a test's wrapper implements only what
/// it changes (usually ``PostRepository/page(_:cachePolicy:priority:)``).
protocol ForwardingRepository: PostRepository {
    var base: any PostRepository { get }
}

extension ForwardingRepository {
    var backend: BackendDescription { base.backend }
    var pageSize: Int { base.pageSize }
    var firstPageKey: PageKey { base.firstPageKey }
    func pageKey(forPageNumber number: Int) -> PageKey? { base.pageKey(forPageNumber: number) }
    func post(id: PostID, cachePolicy: PageCachePolicy) async throws(RepositoryError) -> Post {
        try await base.post(id: id, cachePolicy: cachePolicy)
    }
    func invalidateCachedPages() async { await base.invalidateCachedPages() }
}
