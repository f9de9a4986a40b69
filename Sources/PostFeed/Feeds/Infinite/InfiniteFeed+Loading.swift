import Foundation
import Logging
import PostFeedHTTP

extension InfiniteFeed {
    /// Loads the next page when `visibleIndex` is within the threshold of the end, and
    /// prefetches the images of the ``Configuration/imagePrefetchCount`` posts from
    /// `visibleIndex` on. Returns whether posts were added.
    @discardableResult
    public func loadMoreIfNeeded(visibleIndex: Int) async throws(RepositoryError) -> Bool {
        focusIndex = max(0, visibleIndex)
        await prefetchImages(from: focusIndex, count: configuration.imagePrefetchCount)
        guard hasMore, visibleIndex >= count - configuration.prefetchThreshold - 1 else { return false }
        return try await loadMore() > 0
    }

    /// Back to page 1 from the network, page cache invalidated, background load cancelled.
    /// When it fails, the old content stays and the error is thrown; call again to retry.
    public func refresh() async throws(RepositoryError) {
        cancelBackgroundCatalogLoad()
        // The next page of the old list: landing after the refresh it would be stored in
        // the new generation and shown as the new list's page 2.
        pagePrefetch?.task.cancel()
        pagePrefetch = nil
        if let loadFlight { await loadFlight.task.value }
        let first = try await repository.page(repository.firstPageKey, cachePolicy: .reload, priority: .high)
        // Only now that page 1 arrived is the old list dropped.
        await repository.invalidateCachedPages()
        generation += 1
        segments = []
        expiredPages = []
        knownIDs = KnownPostIDs()
        nextKey = first.nextKey
        totalCount = first.totalCount ?? totalCount
        staleReason = first.staleReason
        noteLength(of: first)
        append(first)
        if configuration.unseenOnly, count == 0, hasMore { _ = try await loadMore() }
        schedulePrefetch()
    }

    func performLoadMore(priority: HTTPPriority) async throws(RepositoryError) -> Int {
        var added = 0
        // Skipping pages of hidden posts is bounded so a fully-seen catalog ends quickly.
        var pagesTried = 0
        // Pages in a row that held only posts already loaded: one or two is upstream drift
        // (posts added at the top shift older ones onto the next page); more is a backend
        // that repeats itself.
        var repeatedPages = 0
        while added == 0, let key = nextKey, pagesTried < 50 {
            let listGeneration = generation
            try Self.checkCancellation(page: key)
            if let prefetch = pagePrefetch, prefetch.key == key {
                // Single flight across prefetch and load: the page lands in the cache once.
                await prefetch.task.value
                if pagePrefetch?.key == key { pagePrefetch = nil }
            }
            let page: Page
            do {
                page = try await repository.page(key, cachePolicy: readPolicy, priority: priority)
            } catch where error.code == .pageOutOfRange {
                try Self.checkCancellation(page: key)
                guard generation == listGeneration else { continue }
                // Past the end (json-server answers an empty page there): the list is complete.
                nextKey = nil
                break
            }
            // Every caller left, or the list was replaced while the page loaded (a refresh
            // or restore): this page belongs to no list now.
            try Self.checkCancellation(page: key)
            guard generation == listGeneration else { continue }
            pagesTried += 1
            noteLength(of: page)
            if let total = page.totalCount { totalCount = total }
            if let reason = page.staleReason { staleReason = reason }
            let repeats = !page.posts.isEmpty && page.posts.allSatisfy { knownIDs.contains($0.id) }
            repeatedPages = repeats ? repeatedPages + 1 : 0
            if let stall = repeatedPostsStall(page, key: key, repeatedPages: repeatedPages) {
                // The backend goes round in circles: end the list, say so once, add nothing.
                endWalk(stall)
                break
            }
            nextKey = page.nextKey
            added += append(page)
            noteExpired(page)
            if let next = page.nextKey, walked(next, after: key) {
                // The page is new, only the way on loops (a next link or cursor already
                // walked): its posts stay, and the walk ends after them.
                endWalk("the next page after \(key) is \(next), already read; the backend's pagination loops, so the "
                    + "list ends here after \(count) posts")
                break
            }
        }
        evictIfNeeded()
        // The background catalog load (low priority) walks pages for order, search and
        // unseen posts; it warms no image and no next page. Images follow the reader
        // (``prefetchImages(from:count:)``), so a 100,000-post catalog never downloads
        // 100,000 images the reader may never reach.
        if priority != .low { schedulePrefetch() }
        return added
    }

    /// Why `page` (fetched with `key`) adds nothing, or `nil`: it is the third page in a
    /// row holding only posts already loaded, or it holds only posts already loaded and
    /// its next key is one already walked (a `Link` next pointing to itself, a cursor that
    /// repeats). A page the server sent longer than asked for and that holds only posts
    /// already loaded is no drift: the server ignores the paging and sends the same posts
    /// again, so it ends the list at once. A page with new posts whose next key loops is
    /// appended first (see ``performLoadMore(priority:)``).
    private func repeatedPostsStall(_ page: Page, key: PageKey, repeatedPages: Int) -> String? {
        guard repeatedPages > 0 else { return nil }
        if let reason = page.longPageReason(pageSize: repository.pageSize) {
            return "\(key) holds only posts already loaded and \(reason): it sends the same posts again, so the list "
                + "ends here after \(count) posts"
        }
        if repeatedPages >= Self.repeatedPagesBeforeStall {
            return "\(key) is the \(Self.ordinal(repeatedPages)) page in a row holding only posts already loaded; the "
                + "backend repeats itself, so the list ends here after \(count) posts"
        }
        if let next = page.nextKey, walked(next, after: key) {
            return "the next page after \(key) is \(next), already read; the backend's pagination loops, so the list ends "
                + "here after \(count) posts"
        }
        return nil
    }

    /// Whether `next`, the key after the page fetched with `key`, was walked already: the
    /// page itself or one the list holds.
    private func walked(_ next: PageKey, after key: PageKey) -> Bool {
        next == key || segments.contains { $0.key == next }
    }

    /// Ends the list because the backend makes no progress, and says so once.
    private func endWalk(_ reason: String) {
        nextKey = nil
        stalledWalk = reason
        logger.warning("\(reason)")
    }

    /// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd.
    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 100, n % 10) {
        case (11...13, _), (-13 ... -11, _): suffix = "th"
        case (_, 1), (_, -1): suffix = "st"
        case (_, 2), (_, -2): suffix = "nd"
        case (_, 3), (_, -3): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// Warns once when a page came longer than the page size asked for (see ``pageSizeWarning``).
    func noteLength(of page: Page) {
        guard pageSizeWarning == nil,
              let warning = repository.longPageWarning(for: page)
        else { return }
        pageSizeWarning = warning
        logger.warning("\(warning)")
    }

    /// Pages in a row of posts already loaded before the walk is taken to be stuck.
    static let repeatedPagesBeforeStall = 3

    private static func checkCancellation(page: PageKey) throws(RepositoryError) {
        if Task.isCancelled { throw cancelled(page: page) }
    }
}
