import Foundation

extension InfiniteFeed {
    /// Prefetches the images of the newest posts and warms the page cache with the next
    /// page, ahead of them (see `PagePrefetch`), then the images of that page's first
    /// ``Configuration/imagePrefetchCount`` posts: a reader who stays on a page finds the
    /// next screen, images included, already cached. A load that wants that page waits for
    /// the prefetch instead of fetching it a second time.
    func schedulePrefetch() {
        if let images {
            let upcoming = segments.last?.posts ?? []
            PagePrefetch.images(
                upcoming.prefix(configuration.imagePrefetchCount).compactMap { repository.backend.imageURL(for: $0) },
                into: images)
        }
        guard configuration.prefetchNextPage, let nextKey else { return }
        let pageImages = configuration.imagePrefetchCount > 0 ? images : nil
        pagePrefetch = PagePrefetch(
            key: nextKey, repository: repository, images: pageImages, imageLimit: configuration.imagePrefetchCount, logger: logger)
    }
}
