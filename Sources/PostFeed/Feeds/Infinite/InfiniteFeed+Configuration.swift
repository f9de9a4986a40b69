extension InfiniteFeed {
    /// How the feed loads, hides and keeps pages (posts stay in the backend's order; the
    /// whole feed by popularity is ``FeedClient/popularityOrder(maximumPosts:progress:)``).
    public struct Configuration: Sendable {
        /// Load more when the visible index is this close to the end. Default 5.
        public var prefetchThreshold: Int
        /// Pages whose posts stay in memory; `nil` keeps all.
        public var maximumResidentPages: Int?
        /// Hide posts shown in an earlier run (``hiddenPostIDs``); this run's stay.
        public var unseenOnly: Bool
        /// Images of the next posts to prefetch after each load. Default 10; 0 disables.
        public var imagePrefetchCount: Int
        /// Warm the page cache with the following page after each load. Default on.
        public var prefetchNextPage: Bool
        /// Use a cached page at once whatever its age (``CachePolicy/cacheElseLoad``; the
        /// network only for pages the cache lacks), and queue those past their expiry for
        /// ``InfiniteFeed/revalidateNextExpiredPage(priority:)``, which asks the server in
        /// the background and replaces a page that changed. Default off: an expired page is
        /// revalidated before it is used (``CachePolicy/useCache``), as `list` wants.
        public var servesExpiredPages: Bool

        /// Negative counts become 0, and a window of fewer than 1 page becomes 1.
        public init(
            prefetchThreshold: Int = 5, maximumResidentPages: Int? = nil, unseenOnly: Bool = false,
            imagePrefetchCount: Int = 10, prefetchNextPage: Bool = true, servesExpiredPages: Bool = false
        ) {
            self.prefetchThreshold = max(0, prefetchThreshold)
            self.maximumResidentPages = maximumResidentPages.map { max(1, $0) }
            self.unseenOnly = unseenOnly
            self.imagePrefetchCount = max(0, imagePrefetchCount)
            self.prefetchNextPage = prefetchNextPage
            self.servesExpiredPages = servesExpiredPages
        }
    }
}
