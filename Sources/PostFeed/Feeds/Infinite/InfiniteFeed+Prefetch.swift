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

    /// Prefetches, at low priority, the images of the `count` resident posts from index
    /// `first` on: a reader ahead of the loads (the catalog loaded in the background) still
    /// finds the next screen's images cached. Posts not resident, cached images and images
    /// already loading cost nothing. Returns how many URLs were handed to the pipeline.
    @discardableResult
    public func prefetchImages(from first: Int, count: Int) async -> Int {
        guard let images, count > 0, first >= 0 else { return 0 }
        let end = PlaceConverter.saturatingAdd(first, count)
        var urls: [URL] = []
        for index in first..<max(first, min(end, self.count)) {
            if let post = post(at: index), let url = repository.backend.imageURL(for: post) { urls.append(url) }
        }
        // Registered with the pipeline before this returns, so `finishPrefetching()` waits for them.
        if !urls.isEmpty { await images.prefetch(urls) }
        return urls.count
    }
}
