import Foundation

extension InfiniteFeed {
    /// Prefetches the images of the newest posts and warms the page cache with the next
    /// page, ahead of them (see `PagePrefetch`). A load that wants that page waits for the
    /// prefetch instead of fetching it a second time.
    func schedulePrefetch() {
        if let images {
            let upcoming = segments.last?.posts ?? []
            PagePrefetch.images(
                upcoming.prefix(configuration.imagePrefetchCount).compactMap { repository.backend.imageURL(for: $0) },
                into: images)
        }
        guard configuration.prefetchNextPage, let nextKey else { return }
        pagePrefetch = PagePrefetch(key: nextKey, repository: repository, logger: logger)
    }
}
