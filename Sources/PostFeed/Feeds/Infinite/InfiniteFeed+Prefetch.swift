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
            key: nextKey, repository: repository, images: pageImages, imageLimit: configuration.imagePrefetchCount,
            cachePolicy: readPolicy, logger: logger)
    }

    /// Waits for the prefetch of the next page (and the handing of its images to the
    /// pipeline) to end, bounded by its request timeouts. The images themselves are the
    /// pipeline's to wait for (``ImagePipeline/finishPrefetching(andStop:)``).
    public func finishPrefetching() async {
        await pagePrefetch?.task.value
    }

    /// Prefetches, at low priority, the images of the `count` resident posts from index
    /// `first` on: a reader ahead of the loads (the catalog loaded in the background) still
    /// finds the next screen's images cached. Posts not resident, cached images and images
    /// already loading cost nothing. Returns how many URLs were handed to the pipeline.
    @discardableResult
    public func prefetchImages(from first: Int, count: Int) async -> Int {
        guard count > 0, first >= 0 else { return 0 }
        let end = min(PlaceConverter.saturatingAdd(first, count), self.count)
        return await prefetchImages(at: first..<max(first, end))
    }

    /// ``prefetchImages(from:count:)`` for posts at any global `indices` (a view in
    /// another order, such as browse's popularity order), handed to the pipeline at once.
    @discardableResult
    public func prefetchImages(at indices: some Sequence<Int>) async -> Int {
        guard let images else { return 0 }
        let urls = indices.compactMap { post(at: $0).flatMap(repository.backend.imageURL(for:)) }
        // Registered with the pipeline before this returns, so `finishPrefetching()` waits for them.
        if !urls.isEmpty { await images.prefetch(urls) }
        return urls.count
    }
}
