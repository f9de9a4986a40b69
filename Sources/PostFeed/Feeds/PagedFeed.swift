import Foundation
import Logging
import PostFeedHTTP

/// Numbered pagination: jump to page N, next, previous, first, last.
///
/// The current page stays visible while another loads (``posts`` changes only when the
/// new page arrived); revisiting a page is served from the page cache; the neighbour page
/// is prefetched ahead of image prefetches. Backends addressed by cursor or `Link` cannot jump, so
/// the feed walks from the first page and remembers every key it learns.
///
/// ```swift
/// let feed = PagedFeed(repository: repository)
/// try await feed.goTo(page: 3)
/// print(await feed.currentPage, await feed.posts.count)
/// ```
public actor PagedFeed {
    /// What the feed prefetches after each page it shows.
    public struct Configuration: Sendable {
        /// Prefetch the next page into the page cache after each load. Default on.
        public var prefetchNeighbour: Bool
        /// Prefetch the images of the current page, and of the prefetched next page, at low
        /// priority. Default on.
        public var prefetchImages: Bool
        /// Show a cached page at once whatever its age (``CachePolicy/cacheElseLoad`` for
        /// every navigation under the default ``CachePolicy/useCache``; the network only for
        /// pages the cache lacks), and queue those past their expiry for
        /// ``PagedFeed/revalidateNextExpiredPage(priority:)``, which asks the server in the
        /// background and replaces the page on screen when it changed. Default off: an
        /// expired page is revalidated before it is shown, as `page` wants.
        public var servesExpiredPages: Bool
        /// With both prefetches on, the next page waits for the current page's images to
        /// land, at most this long, before it is requested: the screen being shown comes
        /// first. A navigation to that page starts it at once. Default 1 s.
        public var nextPageHeadStart: Duration
        /// The clock ``nextPageHeadStart`` is measured on; a test passes one it advances.
        public var clock: any Clock<Duration>

        /// Both prefetches are on unless turned off; expired pages are revalidated first.
        public init(
            prefetchNeighbour: Bool = true, prefetchImages: Bool = true, servesExpiredPages: Bool = false,
            nextPageHeadStart: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.prefetchNeighbour = prefetchNeighbour
            self.prefetchImages = prefetchImages
            self.servesExpiredPages = servesExpiredPages
            self.nextPageHeadStart = nextPageHeadStart
            self.clock = clock
        }
    }

    /// Where pages come from, read through its page cache.
    public nonisolated let repository: any PostRepository
    private let images: ImagePipeline?
    let configuration: Configuration
    private let logger: Logger

    /// The page on screen (1-based); 0 before the first load.
    public private(set) var currentPage = 0
    /// The posts of ``currentPage``.
    public internal(set) var posts: [Post] = []
    /// Pages in all, when the backend said or the end was reached.
    public private(set) var totalPages: Int?
    /// Posts in the whole list, when the backend said.
    public private(set) var totalCount: Int?
    /// The current page came from the cache after a network failure.
    public var isStale: Bool { staleReason != nil }
    /// Why the current page is out of date (offline, the network or the server failed);
    /// `nil` when it is not.
    public internal(set) var staleReason: String?
    /// A navigation is loading its page (the latest one, when calls overlap); ``posts`` still
    /// shows the previous page.
    public private(set) var isLoading = false
    /// Why the walk through the pages ended early (a next link back to a page already
    /// read); also logged as a warning. `nil` normally.
    public private(set) var stalledWalk: String?
    /// Set when a page came longer than the page size asked for (the server ignores it),
    /// and logged once as a warning: how many posts it sent, and that each page shows only
    /// its first page-size posts (see `Page.sentPostCount`). `nil` normally.
    public private(set) var pageSizeWarning: String?
    /// Set when ``last()`` found the server's total too high (its last pages empty or
    /// missing): one line saying how many pages it counts and which is the last with
    /// posts. `nil` normally.
    public private(set) var totalMismatch: String?
    /// The first page found empty or missing although the server's total counts it: pages
    /// from it on do not exist, whatever later pages' totals claim.
    private var firstMissingPage: Int?
    /// Keys learnt so far, by page number (page 1 is always known).
    var keys: [Int: PageKey]
    /// Pages shown from the cache past their expiry, oldest first, waiting for
    /// ``revalidateNextExpiredPage(priority:)`` (``Configuration/servesExpiredPages``).
    var expiredPages: [(number: Int, key: PageKey)] = []
    /// Bumped by each reload (``refresh()``, ``goTo(page:cachePolicy:)`` with `.reload`): a
    /// revalidation that awaited across one must neither queue its page again nor replace
    /// the reloaded posts.
    var reloads = 0
    /// The neighbour page being warmed in the page cache, and its key.
    private var pagePrefetch: PagePrefetch?
    /// Counts navigations: only the latest one puts its page on screen.
    private var navigation = 0

    /// A feed on no page yet (``currentPage`` 0); nothing is fetched until a navigation.
    public init(
        repository: any PostRepository, images: ImagePipeline? = nil, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "postfeed.paged")
    ) {
        self.repository = repository
        self.images = images
        self.configuration = configuration
        self.logger = logger
        self.keys = [1: repository.firstPageKey]
    }

    /// Whether a page follows the current one; `true` while the page count is unknown.
    public var hasNext: Bool { totalPages.map { currentPage < $0 } ?? true }
    /// The key of the page on screen (saved in list state).
    public var currentPageKey: PageKey? { currentPage >= 1 ? keys[currentPage] : nil }
    /// Whether a page comes before the current one.
    public var hasPrevious: Bool { currentPage > 1 }

    // MARK: Navigation

    /// Shows page `number`. Out of range (below 1, or past the last known page) throws
    /// `.pageOutOfRange` and leaves the current page on screen.
    ///
    /// Calls that overlap end on the page asked for last, whatever answers first: an
    /// overtaken call returns its page without showing it.
    @discardableResult
    public func goTo(page number: Int, cachePolicy: PageCachePolicy = .useCache) async throws(RepositoryError) -> Page {
        guard number >= 1 else {
            throw RepositoryError(.pageOutOfRange, url: nil, page: .number(number), message: "page \(number) does not exist; pages start at 1")
        }
        if let totalPages, number > totalPages {
            throw RepositoryError(
                .pageOutOfRange, url: nil, page: .number(number),
                message: "page \(number) is past the end (\(totalPages) page\(totalPages == 1 ? "" : "s")); try 1…\(totalPages)")
        }
        navigation += 1
        let ticket = navigation
        isLoading = true
        defer { if ticket == navigation { isLoading = false } }
        let page = try await fetch(number, cachePolicy: readPolicy(cachePolicy), priority: .high)
        // A reload starts over from the network: what was queued came from the old cache.
        if cachePolicy == .reload {
            expiredPages = []
            reloads += 1
        }
        guard ticket == navigation else { return page }
        show(page, number: number)
        noteExpired(page, number: number)
        prefetchAround(number)
        return page
    }

    /// Shows the page after the current one (page 1 before any load); past the last page,
    /// `.pageOutOfRange` and the current page stays.
    @discardableResult
    public func next() async throws(RepositoryError) -> Page {
        try await goTo(page: PlaceConverter.saturatingAdd(max(currentPage, 0), 1))
    }

    /// Shows the page before the current one; on page 1 (or before any load), `.pageOutOfRange`
    /// and the current page stays.
    @discardableResult
    public func previous() async throws(RepositoryError) -> Page {
        try await goTo(page: currentPage - 1)
    }

    /// Shows page 1.
    @discardableResult
    public func first() async throws(RepositoryError) -> Page {
        try await goTo(page: 1)
    }

    /// The last page: directly when the total is known, else by walking to the end.
    @discardableResult
    public func last() async throws(RepositoryError) -> Page {
        if totalPages == nil { _ = try await fetch(1, cachePolicy: readPolicy(.useCache), priority: .high) }
        if let claimed = totalPages {
            do {
                return try await goTo(page: claimed)
            } catch where error.code == .pageOutOfRange {
                // Walking there found fewer pages than the total claims (a next link that
                // loops back): the last page is the last one the walk reached.
                if let walked = totalPages, walked < claimed, walked >= 1, firstMissingPage == nil {
                    return try await goTo(page: walked)
                }
                // Pages reached directly (numbers, offsets): the claimed last page is empty
                // or missing, so the total lies. The last page with posts, found by halving
                // between page 1 and the claim (log2 of it in requests, each cached).
                guard claimed > 1 else { throw error }
                var (withPosts, without) = (1, min(claimed, firstMissingPage ?? claimed))
                while without - withPosts > 1 {
                    let middle = withPosts + (without - withPosts) / 2
                    do {
                        _ = try await fetch(middle, cachePolicy: readPolicy(.useCache), priority: .high)
                        withPosts = middle
                    } catch where error.code == .pageOutOfRange {
                        without = middle
                    }
                }
                noteMissing(from: without)
                totalMismatch = "the server counts \(claimed) page\(claimed == 1 ? "" : "s")"
                    + (totalCount.map { " (\($0) post\($0 == 1 ? "" : "s"))" } ?? "") + ", but page \(without) has no posts: "
                    + "page \(withPosts) is the last one with posts"
                logger.warning("\(totalMismatch ?? "")")
                return try await goTo(page: withPosts)
            }
        }
        var number = max(currentPage, 1)
        while true {
            let page: Page
            do {
                page = try await fetch(number, cachePolicy: readPolicy(.useCache), priority: .high)
            } catch where error.code == .pageOutOfRange && number > 1 {
                // The walk found the page after the last missing (a feed's 404): the last
                // page is the one before it.
                guard let walked = totalPages, walked >= 1, walked < number else { throw error }
                return try await goTo(page: walked)
            }
            if page.isLast || totalPages == number {
                show(page, number: number)
                noteExpired(page, number: number)
                return page
            }
            number += 1
        }
    }

    /// Back to page 1 from the network (``Feed``'s one meaning of refresh): once it arrived
    /// the page cache is invalidated, so other pages are revalidated when next shown. When
    /// it fails, the page shown stays and the error is thrown; call again to retry.
    public func refresh() async throws(RepositoryError) {
        try await goTo(page: 1, cachePolicy: .reload)
        await repository.invalidateCachedPages()
    }

    /// Remembers a key learnt elsewhere (e.g. from saved state) for page `number`.
    public func learn(key: PageKey, forPage number: Int) {
        keys[number] = key
    }

    // MARK: Loading

    /// Fetches page `number`: directly when its key is known or computable (page numbers,
    /// offsets), else walking from the nearest known key (cursor/link styles).
    private func fetch(_ number: Int, cachePolicy: PageCachePolicy, priority: HTTPPriority) async throws(RepositoryError) -> Page {
        if let prefetch = pagePrefetch, prefetch.key == key(for: number) {
            // The page is on its way into the cache: wait for it rather than fetch it twice
            // (starting it now if it still waits for the images of the page on screen).
            prefetch.startNow()
            await prefetch.task.value
            pagePrefetch = nil
        }
        if let direct = knownOrComputedKey(for: number) {
            // A jump costs one request, not one per page before it (and offline, only the
            // page asked for has to be cached).
            let page: Page
            do {
                page = try await repository.page(direct, cachePolicy: cachePolicy, priority: priority)
            } catch where error.code == .pageOutOfRange && number > 1 {
                if repository.pageKey(forPageNumber: number) == nil, keys[number - 1] != nil {
                    // A walked page's key learnt from the page before it, missing (a feed's
                    // `?paged=N` past its last page): the page before it is the last.
                    keys[number] = nil
                    totalPages = number - 1
                }
                noteMissing(from: number)
                throw await pastTheEnd(number, else: error)
            }
            // An empty page after the first is past the end (backends that answer 200 there).
            if page.posts.isEmpty, number > 1 {
                noteMissing(from: number)
                throw await pastTheEnd(number, else: RepositoryError(
                    .pageOutOfRange, url: nil, page: .number(number), message: "page \(number) is past the end (it is empty)"))
            }
            if page.sentPostCount != nil {
                noteLength(of: page)
                if number > 1 { try await refuseRepeatOfFirstPage(page, number: number) }
            }
            learn(from: page, number: number)
            return page
        }
        var known = keys.keys.filter { $0 <= number }.max() ?? 1
        var page = try await repository.page(key(for: known), cachePolicy: cachePolicy, priority: priority)
        learn(from: page, number: known)
        while known < number {
            guard let nextKey = keys[known + 1], page.nextKey != nil else {
                totalPages = known
                throw RepositoryError(
                    .pageOutOfRange, url: nil, page: .number(number),
                    message: "page \(number) is past the end (\(known) page\(known == 1 ? "" : "s")); try 1…\(known)")
            }
            // Pages walked through on the way are read through the cache like any other.
            do {
                page = try await repository.page(
                    nextKey, cachePolicy: known + 1 == number ? cachePolicy : readPolicy(.useCache), priority: priority)
            } catch where error.code == .pageOutOfRange {
                // The next page is missing (a WordPress feed's `?paged=N` answers 404 past
                // its last page): the page walked last is the last one.
                keys[known + 1] = nil
                totalPages = known
                throw RepositoryError(
                    .pageOutOfRange, url: error.url, page: .number(number),
                    message: "page \(number) is past the end (\(known) page\(known == 1 ? "" : "s")); try 1…\(known)")
            }
            known += 1
            learn(from: page, number: known)
        }
        return page
    }

    /// The error for page `number`, which does not exist: names the valid range when the
    /// page count is known or page 1 (usually cached) tells it; else `fallback`.
    private func pastTheEnd(_ number: Int, else fallback: RepositoryError) async -> RepositoryError {
        if totalPages == nil,
           let first = try? await repository.page(repository.firstPageKey, cachePolicy: readPolicy(.useCache), priority: .high)
        {
            learn(from: first, number: 1)
        }
        guard let totalPages, number > totalPages else { return fallback }
        return RepositoryError(
            .pageOutOfRange, url: nil, page: .number(number),
            message: "page \(number) is past the end (\(totalPages) page\(totalPages == 1 ? "" : "s")); try 1…\(totalPages)")
    }

    /// Warns once when a page came longer than the page size asked for (see ``pageSizeWarning``).
    private func noteLength(of page: Page) {
        guard pageSizeWarning == nil,
              let warning = repository.longPageWarning(for: page)
        else { return }
        pageSizeWarning = warning
        logger.warning("\(warning)")
    }

    /// Throws `.pageOutOfRange` when page `number`, which the server sent longer than asked
    /// for, holds the same posts as page 1: the server ignores the page number too and
    /// sends the same posts for every page, so they would be shown again under page
    /// `number`'s numbers. At this page size only page 1 exists. When page 1 cannot be
    /// read (offline and not cached), the page is shown, with the warning.
    private func refuseRepeatOfFirstPage(_ page: Page, number: Int) async throws(RepositoryError) {
        guard let first = try? await repository.page(repository.firstPageKey, cachePolicy: readPolicy(.useCache), priority: .high),
              first.posts.map(\.id) == page.posts.map(\.id)
        else { return }
        learn(from: first, number: 1)
        totalPages = 1
        let sent = page.sentPostCount.map { "\($0) posts" } ?? "more posts"
        throw RepositoryError(
            .pageOutOfRange, url: try? repository.backend.pageURL(for: page.key, pageSize: repository.pageSize),
            page: .number(number),
            message: "page \(number) holds the same posts as page 1: the server ignores the page size (it sent \(sent) for a "
                + "page of \(repository.pageSize)) and the page number, so at this page size there is only page 1")
    }

    private func key(for number: Int) -> PageKey {
        knownOrComputedKey(for: number) ?? repository.firstPageKey
    }

    /// The key learnt for page `number`, else the one the pagination style computes.
    private func knownOrComputedKey(for number: Int) -> PageKey? {
        if let known = keys[number] { return known }
        return repository.pageKey(forPageNumber: number)
    }

    func learn(from page: Page, number: Int) {
        keys[number] = page.key
        // Numbers come from the reader (any page up to Int.max) and the network: no trap.
        var loops = false
        if let nextKey = page.nextKey, number < Int.max {
            if keys.contains(where: { $0.key <= number && $0.value == nextKey }) {
                // A next link back to a page already walked: the list cannot go on from here.
                loops = true
                stalledWalk = "the next page after page \(number) is \(nextKey), already read; the backend's pagination "
                    + "loops, so page \(number) is the last"
                logger.warning("\(stalledWalk ?? "")")
            } else {
                keys[number + 1] = nextKey
            }
        }
        if let total = page.totalCount { totalCount = total }
        if let pages = page.totalPages {
            totalPages = pages
        } else if let total = page.totalCount {
            totalPages = PlaceConverter.page(forPosition: max(total, 1), pageSize: repository.pageSize)
        }
        if page.isLast || loops { totalPages = number }
        clampToMissing()
    }

    /// Remembers that page `number` (after the first) is empty or missing.
    private func noteMissing(from number: Int) {
        guard number > 1 else { return }
        firstMissingPage = min(firstMissingPage ?? number, number)
        clampToMissing()
    }

    /// No total counts the pages from the first missing one on.
    private func clampToMissing() {
        if let missing = firstMissingPage, let pages = totalPages, pages >= missing { totalPages = missing - 1 }
    }

    private func show(_ page: Page, number: Int) {
        currentPage = number
        posts = page.posts
        staleReason = page.staleReason
    }

    /// Prefetches the current page's images, then warms the page cache with the next page
    /// and its images: the page on screen first (see ``PagePrefetch``).
    private func prefetchAround(_ number: Int) {
        var currentImages: Task<Void, Never>?
        if configuration.prefetchImages, let images {
            currentImages = PagePrefetch.imagesToWaitFor(posts.compactMap { repository.backend.imageURL(for: $0) }, into: images)
        }
        guard configuration.prefetchNeighbour, hasNext, number < Int.max, let nextKey = knownOrComputedKey(for: number + 1) else { return }
        pagePrefetch = PagePrefetch(
            key: nextKey, repository: repository, images: configuration.prefetchImages ? images : nil,
            cachePolicy: readPolicy(.useCache),
            after: currentImages.map { ($0, configuration.nextPageHeadStart, configuration.clock) }, logger: logger)
    }

    /// Waits for the prefetch of the next page and its images (and of the current page's
    /// images) to end, each bounded by its request timeouts: `page N` then leaves `page N+1`
    /// nothing to fetch. A process that must end at once calls ``cancelPrefetching()``.
    public func finishPrefetching() async {
        await pagePrefetch?.task.value
        await images?.finishPrefetching()
    }

    /// Stops background prefetching (on exit).
    public func cancelPrefetching() async {
        pagePrefetch?.task.cancel()
        pagePrefetch = nil
        await images?.cancelPrefetching()
    }
}
