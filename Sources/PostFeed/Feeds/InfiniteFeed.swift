import Foundation
import Logging
import PostFeedHTTP

/// Infinite scroll: pages are appended as the reader nears the end.
///
/// - ``loadMoreIfNeeded(visibleIndex:)`` loads the next page when the reader is within
///   ``Configuration/prefetchThreshold`` items of the end (default 5).
/// - **Single-flight**: concurrent calls join the one load in flight; a page is never
///   fetched twice. A cancelled caller leaves at once; the load stops when all have left.
/// - **Overlapping calls**: a page that arrives after ``refresh()`` or
///   ``restore(_:hiddenPostIDs:)`` replaced the list is dropped, never appended to the new one.
/// - **Dedup by post id**: a page that overlaps posts already loaded (items inserted
///   upstream shift offsets) is trimmed of them, so the list has neither duplicates nor gaps.
/// - **Window**: with ``Configuration/maximumResidentPages`` set, only that many pages keep
///   their posts in memory; the others keep their key and ids and come back from the page
///   cache when the reader scrolls back, so memory stays bounded however far one scrolls.
/// - **Refresh** goes back to page 1 from the network; if it fails, the old content stays.
///
/// Indices are global: index 0 is the first post loaded, whatever the window holds.
public actor InfiniteFeed {
    public struct Configuration: Sendable {
        /// Load more when the visible index is this close to the end. Default 5.
        public var prefetchThreshold: Int
        /// Pages whose posts stay in memory; `nil` keeps all.
        public var maximumResidentPages: Int?
        public var ordering: FeedOrdering
        /// Hide posts shown in an earlier run (``hiddenPostIDs``); this run's stay.
        public var unseenOnly: Bool
        /// Images of the next posts to prefetch after each load. Default 10; 0 disables.
        public var imagePrefetchCount: Int
        /// Warm the page cache with the following page after each load. Default on.
        public var prefetchNextPage: Bool

        public init(
            prefetchThreshold: Int = 5, maximumResidentPages: Int? = nil, ordering: FeedOrdering = .backend,
            unseenOnly: Bool = false, imagePrefetchCount: Int = 10, prefetchNextPage: Bool = true
        ) {
            self.prefetchThreshold = max(0, prefetchThreshold)
            self.maximumResidentPages = maximumResidentPages.map { max(1, $0) }
            self.ordering = ordering
            self.unseenOnly = unseenOnly
            self.imagePrefetchCount = max(0, imagePrefetchCount)
            self.prefetchNextPage = prefetchNextPage
        }
    }

    /// One loaded page: its key and post ids always, its posts while resident.
    public struct Segment: Sendable, Equatable {
        public var key: PageKey
        /// The ids of the posts the feed shows from this page, in the feed's order.
        public var postIDs: [Int]
        /// The ids of the page's posts as the backend listed them, less duplicates of
        /// earlier pages: ``postIDs`` plus the posts hidden by
        /// ``Configuration/unseenOnly``, in the backend's order. List state saves these,
        /// so post numbers stay the backend's positions.
        public var listedPostIDs: [Int]
        var posts: [Post]?
        public var isResident: Bool { posts != nil }

        /// A page whose posts are all shown, in the backend's order.
        public init(key: PageKey, postIDs: [Int]) {
            self.init(key: key, postIDs: postIDs, listedPostIDs: postIDs)
        }

        /// A page showing `postIDs` of the `listedPostIDs` the backend listed.
        public init(key: PageKey, postIDs: [Int], listedPostIDs: [Int]) {
            self.key = key
            self.postIDs = postIDs
            self.listedPostIDs = listedPostIDs
            self.posts = nil
        }
    }

    /// What list state needs to put the feed back: pages, the next key, the total.
    public struct Snapshot: Sendable, Equatable {
        public var segments: [Segment]
        /// `nil` at the end of the list.
        public var nextKey: PageKey?
        public var totalCount: Int?

        public init(segments: [Segment], nextKey: PageKey?, totalCount: Int?) {
            self.segments = segments
            self.nextKey = nextKey
            self.totalCount = totalCount
        }

        public var postIDs: [Int] { segments.flatMap(\.postIDs) }
    }

    public nonisolated let repository: any PostRepository
    private let images: ImagePipeline?
    public nonisolated let configuration: Configuration
    private let logger: Logger

    private var segments: [Segment] = []
    private var knownIDs: Set<Int> = []
    /// `nil` = end reached.
    private var nextKey: PageKey?
    public private(set) var totalCount: Int?
    /// Posts shown in earlier runs, hidden when ``Configuration/unseenOnly`` is set.
    public private(set) var hiddenPostIDs = PostIDSet()
    /// Times a page overlapped posts already loaded (offset drift upstream).
    public private(set) var driftEvents = 0
    /// A page came from the cache because the network failed (pages read back from the
    /// cache on purpose, when restoring or scrolling back, do not count).
    public private(set) var isShowingStaleContent = false
    /// Why the background catalog load stopped, if it failed.
    public private(set) var backgroundError: RepositoryError?
    private var focusIndex = 0
    /// The load in flight and the callers waiting for it.
    private var loadFlight: LoadFlight?
    /// Bumped whenever the list is replaced (``refresh()``, ``restore(_:hiddenPostIDs:)``):
    /// work that awaited across a replacement must not write into the new list.
    private var generation = 0
    private var backgroundTask: Task<Void, Never>?
    /// The next page being warmed in the page cache, and its key.
    private var pagePrefetch: PagePrefetch?

    public init(
        repository: any PostRepository, images: ImagePipeline? = nil, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "postfeed.infinite")
    ) {
        self.repository = repository
        self.images = images
        self.configuration = configuration
        self.logger = logger
        self.nextKey = repository.firstPageKey
    }

    // MARK: Reading

    /// Posts loaded so far (resident or not).
    public var count: Int { segments.reduce(0) { $0 + $1.postIDs.count } }
    public var hasMore: Bool { nextKey != nil }
    public var isLoadingMore: Bool { loadFlight != nil }
    public var isBackgroundLoading: Bool { backgroundTask != nil }
    /// Every loaded post id, in order.
    public var loadedPostIDs: [Int] { segments.flatMap(\.postIDs) }
    /// Pages whose posts are in memory now.
    public var residentPageCount: Int { segments.filter(\.isResident).count }

    /// Resident posts, in order (all posts when there is no window).
    public var posts: [Post] { segments.flatMap { $0.posts ?? [] } }

    /// The post at global `index` if its page is resident.
    public func post(at index: Int) -> Post? {
        guard let (segment, offset) = locate(index), let posts = segments[segment].posts else { return nil }
        let id = segments[segment].postIDs[offset]
        return posts.first { $0.id == id }
    }

    /// The posts at global indices `range` (clamped), reloading dropped pages from the
    /// page cache (the network only when the cache lost them).
    public func posts(in range: Range<Int>) async throws(RepositoryError) -> [Post] {
        focusIndex = max(0, range.lowerBound)
        var result: [Post] = []
        var index = max(0, range.lowerBound)
        var listGeneration = generation
        while index < min(range.upperBound, count), let (segment, _) = locate(index) {
            try await makeResident(segment)
            if generation != listGeneration {
                // The list was replaced while a page loaded: read the range from the new one.
                (result, index, listGeneration) = ([], max(0, range.lowerBound), generation)
                continue
            }
            // Making a page resident may drop posts deleted upstream: locate again.
            guard let (current, offset) = locate(index), current == segment, let posts = segments[segment].posts else {
                continue
            }
            let end = min(posts.count, offset + (range.upperBound - index))
            result += posts[offset..<end]
            index += end - offset
        }
        evictIfNeeded()
        return result
    }

    /// The 0-based position in the backend's list of the post at feed index `index`: the
    /// same as `index` unless ``Configuration/unseenOnly`` hid posts before it. Numbers
    /// shown to the reader are these positions plus one. `index` itself when not loaded.
    public func listPosition(ofIndex index: Int) -> Int {
        guard let (position, offset) = locate(index) else { return index }
        let segment = segments[position]
        let base = segments[..<position].reduce(0) { $0 + $1.listedPostIDs.count }
        return base + (segment.listedPostIDs.firstIndex(of: segment.postIDs[offset]) ?? offset)
    }

    /// The global index of post `id`, if loaded.
    public func index(ofPostID id: Int) -> Int? {
        var base = 0
        for segment in segments {
            if let offset = segment.postIDs.firstIndex(of: id) { return base + offset }
            base += segment.postIDs.count
        }
        return nil
    }

    public func snapshot() -> Snapshot {
        Snapshot(
            segments: segments.map { Segment(key: $0.key, postIDs: $0.postIDs, listedPostIDs: $0.listedPostIDs) },
            nextKey: nextKey, totalCount: totalCount)
    }

    // MARK: Loading

    /// Loads the next page when `visibleIndex` is within the threshold of the end.
    /// Returns whether posts were added.
    @discardableResult
    public func loadMoreIfNeeded(visibleIndex: Int) async throws(RepositoryError) -> Bool {
        focusIndex = max(0, visibleIndex)
        guard hasMore, visibleIndex >= count - configuration.prefetchThreshold - 1 else { return false }
        return try await loadMore() > 0
    }

    /// Loads the next page, joining the load in flight if there is one. Returns the number
    /// of posts added (0 at the end). With ``Configuration/unseenOnly`` pages that hold only
    /// hidden posts are skipped.
    ///
    /// A cancelled caller gets `.cancelled` at once; the load itself stops when every caller
    /// waiting for it has been cancelled, and then adds nothing. A caller more urgent than
    /// the load in flight (`.high` joining the background catalog load's `.low`) has it
    /// started again at its priority, so the reader's screen never waits behind prefetches.
    @discardableResult
    public func loadMore(priority: HTTPPriority = .high) async throws(RepositoryError) -> Int {
        guard loadFlight != nil || hasMore else { return 0 }
        let waiter = UUID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: LoadFlight.Waiter) in
                joinLoad(priority: priority, waiter: waiter, continuation: continuation)
            }
        } onCancel: {
            Task { await self.leaveLoad(waiter: waiter) }
        }
        return try result.get()
    }

    /// Back to page 1 from the network, page cache invalidated, background load cancelled.
    /// When it fails, the old content stays and the error is thrown; call again to retry.
    public func refresh() async throws(RepositoryError) {
        cancelBackgroundCatalogLoad()
        if let loadFlight { await loadFlight.task.value }
        let first = try await repository.page(repository.firstPageKey, cachePolicy: .reload, priority: .high)
        // Only now that page 1 arrived is the old list dropped.
        await repository.invalidateCachedPages()
        generation += 1
        segments = []
        knownIDs = []
        nextKey = first.nextKey
        totalCount = first.totalCount ?? totalCount
        isShowingStaleContent = first.isStale
        append(first)
        if configuration.unseenOnly, count == 0, hasMore { _ = try await loadMore() }
        schedulePrefetch()
    }

    /// Replaces the feed with saved pages; their posts are read lazily through
    /// ``posts(in:)`` (page cache first).
    public func restore(_ snapshot: Snapshot, hiddenPostIDs: PostIDSet = PostIDSet()) {
        generation += 1
        segments = snapshot.segments.map { Segment(key: $0.key, postIDs: $0.postIDs, listedPostIDs: $0.listedPostIDs) }
        knownIDs = Set(segments.flatMap(\.listedPostIDs))
        nextKey = snapshot.nextKey
        totalCount = snapshot.totalCount
        self.hiddenPostIDs = hiddenPostIDs
    }

    /// Posts shown in earlier runs, to hide with ``Configuration/unseenOnly``.
    public func setHiddenPostIDs(_ ids: PostIDSet) {
        hiddenPostIDs = ids
    }

    // MARK: Background catalog load

    /// Loads the remaining pages silently, `batchSize` at a time at low priority. Stops at
    /// the end, on cancellation, or on the first error (kept in ``backgroundError``) without
    /// disturbing what is loaded.
    public func startBackgroundCatalogLoad(batchSize: Int = 3) {
        guard backgroundTask == nil, hasMore else { return }
        backgroundError = nil
        backgroundTask = Task {
            await self.runBackgroundLoad(batchSize: max(1, batchSize))
        }
    }

    public func cancelBackgroundCatalogLoad() {
        backgroundTask?.cancel()
        backgroundTask = nil
    }

    /// Waits for the background catalog load to end (for tests and the CLI's exit).
    public func waitForBackgroundCatalogLoad() async {
        await backgroundTask?.value
    }

    /// Stops every background activity (prefetches, catalog load).
    public func cancelBackgroundWork() async {
        cancelBackgroundCatalogLoad()
        pagePrefetch?.task.cancel()
        pagePrefetch = nil
        await images?.cancelPrefetching()
    }

    private func runBackgroundLoad(batchSize: Int) async {
        defer { backgroundTask = nil }
        while hasMore, !Task.isCancelled {
            for _ in 0..<batchSize where hasMore && !Task.isCancelled {
                do {
                    _ = try await loadMore(priority: .low)
                } catch where error.code == .cancelled {
                    return
                } catch {
                    backgroundError = error
                    logger.info("background catalog load stopped", metadata: ["error": "\(error)"])
                    return
                }
            }
            await Task.yield()
        }
    }

    // MARK: Internals

    private func performLoadMore(priority: HTTPPriority) async throws(RepositoryError) -> Int {
        var added = 0
        // Skipping pages of hidden posts is bounded so a fully-seen catalog ends quickly.
        var pagesTried = 0
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
                page = try await repository.page(key, cachePolicy: .useCache, priority: priority)
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
            nextKey = page.nextKey
            if let total = page.totalCount { totalCount = total }
            if page.isStale { isShowingStaleContent = true }
            added += append(page)
        }
        evictIfNeeded()
        schedulePrefetch()
        return added
    }

    /// Appends a page minus posts already loaded (and hidden ones); returns how many were added.
    @discardableResult
    private func append(_ page: Page) -> Int {
        var fresh = page.posts.filter { !knownIDs.contains($0.id) }
        if fresh.count < page.posts.count {
            driftEvents += 1
            logger.debug("page overlaps loaded posts; skipped duplicates", metadata: [
                "page": "\(page.key)", "duplicates": "\(page.posts.count - fresh.count)",
            ])
        }
        let listed = fresh.map(\.id)
        if configuration.unseenOnly { fresh.removeAll { hiddenPostIDs.contains($0.id) } }
        if configuration.ordering == .popularity {
            fresh = fresh.enumerated().sorted { lhs, rhs in
                let (l, r) = (lhs.element.popularity ?? 0, rhs.element.popularity ?? 0)
                return l != r ? l > r : lhs.offset < rhs.offset
            }.map(\.element)
        }
        // A page whose posts are all hidden is kept, empty, so the pages stay 1, 2, 3, … and
        // the hidden posts keep their positions.
        var segment = Segment(key: page.key, postIDs: fresh.map(\.id), listedPostIDs: listed)
        segment.posts = fresh
        segments.append(segment)
        knownIDs.formUnion(listed)
        return fresh.count
    }

    private func locate(_ index: Int) -> (segment: Int, offset: Int)? {
        guard index >= 0 else { return nil }
        var base = 0
        for (position, segment) in segments.enumerated() {
            if index < base + segment.postIDs.count { return (position, index - base) }
            base += segment.postIDs.count
        }
        return nil
    }

    private func makeResident(_ position: Int) async throws(RepositoryError) {
        guard segments[position].posts == nil else { return }
        let key = segments[position].key
        let listGeneration = generation
        let page: Page
        do {
            // Pages coming back into the window (or restored) are read as they were cached,
            // expired or not: no network, and not a failure worth reporting.
            page = try await repository.page(key, cachePolicy: .cacheOnly, priority: .high)
        } catch where error.code == .notCached {
            page = try await repository.page(key, cachePolicy: .useCache, priority: .high)
            if page.isStale, generation == listGeneration { isShowingStaleContent = true }
        }
        // While the page loaded, the list may have been replaced (refresh, restore), or
        // another reader made the same page resident.
        guard generation == listGeneration, segments[position].posts == nil else { return }
        // Keep the ids recorded when the page was first loaded, in their order; posts deleted
        // upstream since then leave the list (the reader's anchor moves to a neighbour).
        let byID = Dictionary(page.posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let surviving = segments[position].postIDs.compactMap { byID[$0] }
        if surviving.count < segments[position].postIDs.count {
            knownIDs.subtract(segments[position].postIDs.filter { byID[$0] == nil })
            segments[position].postIDs = surviving.map(\.id)
        }
        segments[position].listedPostIDs.removeAll { byID[$0] == nil }
        segments[position].posts = surviving
    }

    /// Drops the posts of the resident pages farthest from the reader's focus.
    private func evictIfNeeded() {
        guard let limit = configuration.maximumResidentPages else { return }
        var resident = segments.indices.filter { segments[$0].isResident }
        guard resident.count > limit else { return }
        let focus = locate(focusIndex)?.segment ?? segments.count - 1
        resident.sort { abs($0 - focus) > abs($1 - focus) }
        for position in resident.prefix(resident.count - limit) {
            segments[position].posts = nil
        }
    }

    /// Prefetches the images of the newest posts and warms the page cache with the next
    /// page, ahead of them (see `PagePrefetch`). A load that wants that page waits for the
    /// prefetch instead of fetching it a second time.
    private func schedulePrefetch() {
        if let images {
            let upcoming = segments.last?.posts ?? []
            PagePrefetch.images(
                upcoming.prefix(configuration.imagePrefetchCount).compactMap { repository.backend.imageURL(for: $0) },
                into: images)
        }
        guard configuration.prefetchNextPage, let nextKey else { return }
        pagePrefetch = PagePrefetch(key: nextKey, repository: repository, logger: logger)
    }

    // MARK: Load coalescing

    private func joinLoad(priority: HTTPPriority, waiter: UUID, continuation: LoadFlight.Waiter) {
        if Task.isCancelled {
            continuation.resume(returning: .failure(Self.cancelled(page: nextKey)))
            return
        }
        if let flight = loadFlight, priority > flight.priority {
            // A more urgent caller (the reader's screen) joins a background load, whose
            // request may wait behind prefetches: load again at this priority, with every
            // waiter moved over. The old load is cancelled, and adds nothing if its page
            // still lands (the page cache keeps it for the new one).
            flight.task.cancel()
            var replacement = startLoad(priority: priority)
            replacement.waiters = flight.waiters
            loadFlight = replacement
        }
        if loadFlight == nil {
            guard hasMore else {
                continuation.resume(returning: .success(0))
                return
            }
            loadFlight = startLoad(priority: priority)
        }
        loadFlight?.waiters[waiter] = continuation
    }

    private func startLoad(priority: HTTPPriority) -> LoadFlight {
        let id = UUID()
        let task = Task {
            let result: Result<Int, RepositoryError>
            do throws(RepositoryError) {
                result = .success(try await self.performLoadMore(priority: priority))
            } catch {
                result = .failure(error)
            }
            self.completeLoad(id: id, result: result)
        }
        return LoadFlight(id: id, priority: priority, task: task)
    }

    private func leaveLoad(waiter: UUID) {
        guard var flight = loadFlight, let continuation = flight.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(Self.cancelled(page: nextKey)))
        if flight.waiters.isEmpty {
            // The last caller left: stop the load; the next caller starts anew.
            flight.task.cancel()
            loadFlight = nil
        } else {
            loadFlight = flight
        }
    }

    private func completeLoad(id: UUID, result: Result<Int, RepositoryError>) {
        guard let flight = loadFlight, flight.id == id else { return }
        loadFlight = nil
        for continuation in flight.waiters.values { continuation.resume(returning: result) }
    }

    private static func checkCancellation(page: PageKey) throws(RepositoryError) {
        if Task.isCancelled { throw cancelled(page: page) }
    }

    private static func cancelled(page: PageKey?) -> RepositoryError {
        RepositoryError(.cancelled, url: nil, page: page, message: "loading the next page was cancelled")
    }

    struct LoadFlight {
        typealias Waiter = CheckedContinuation<Result<Int, RepositoryError>, Never>
        let id: UUID
        let priority: HTTPPriority
        let task: Task<Void, Never>
        var waiters: [UUID: Waiter] = [:]
    }
}
