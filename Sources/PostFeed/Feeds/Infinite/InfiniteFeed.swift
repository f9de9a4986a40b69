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
/// - **Cached at once** (``Configuration/servesExpiredPages``): cached pages are used
///   whatever their age, and ``revalidateNextExpiredPage(priority:)`` asks the server for
///   the expired ones in the background, replacing a page that changed.
///
/// Indices are global: index 0 is the first post loaded, whatever the window holds.
public actor InfiniteFeed {
    /// Where pages come from, read through its page cache.
    public nonisolated let repository: any PostRepository
    let images: ImagePipeline?
    /// How the feed loads, hides and keeps pages; fixed at creation.
    public nonisolated let configuration: Configuration
    let logger: Logger

    var segments: [Segment] = []
    var knownIDs = KnownPostIDs()
    /// `nil` = end reached.
    var nextKey: PageKey?
    /// Posts in the whole list, as the backend last said; `nil` when it never did.
    public internal(set) var totalCount: Int?
    /// Posts shown in earlier runs, hidden when ``Configuration/unseenOnly`` is set.
    public internal(set) var hiddenPostIDs = PostIDSet()
    /// Times a page overlapped posts already loaded (offset drift upstream).
    public internal(set) var driftEvents = 0
    /// A page came from the cache because the network failed (pages read back from the
    /// cache on purpose, when restoring or scrolling back, do not count).
    public var isShowingStaleContent: Bool { staleReason != nil }
    /// Why a page came from the cache out of date (offline, the network or the server
    /// failed; the latest reason); `nil` while every page was fresh.
    public internal(set) var staleReason: String? {
        didSet { staleRevalidation = nil }
    }
    /// The page whose failed revalidation set ``staleReason`` (set after it), cleared with
    /// every new reason and when that page revalidates.
    var staleRevalidation: PageKey?
    /// Why the background catalog load stopped, if it failed.
    public internal(set) var backgroundError: RepositoryError?
    /// The post count the background catalog load stopped at because the feed went on past
    /// ``maximumCatalogPosts`` (a backend that never says it ended); `nil` otherwise.
    public internal(set) var backgroundCatalogCappedAt: Int?
    /// Why the list was ended early because the backend made no progress (a page of posts
    /// already loaded, a next key already walked); also logged as a warning. `nil` normally.
    public internal(set) var stalledWalk: String?
    /// Set when a page came longer than the page size asked for (the server ignores it),
    /// and logged once as a warning: how many posts it sent, and that each page shows only
    /// its first page-size posts (see `Page.sentPostCount`). `nil` normally.
    public internal(set) var pageSizeWarning: String?
    var focusIndex = 0
    /// The load in flight and the callers waiting for it.
    var loadFlight: LoadFlight?
    /// Bumped whenever the list is replaced (``refresh()``, ``restore(_:hiddenPostIDs:)``):
    /// work that awaited across a replacement must not write into the new list.
    var generation = 0
    var backgroundTask: Task<Void, Never>?
    /// The next page being warmed in the page cache, and its key.
    var pagePrefetch: PagePrefetch?
    /// Pages served from the cache past their expiry, oldest first, waiting for
    /// ``revalidateNextExpiredPage(priority:)`` (``Configuration/servesExpiredPages``).
    var expiredPages: [PageKey] = []

    /// A feed at the start of `repository`'s list, nothing loaded yet. `images`, when given,
    /// prefetches the images of the posts about to be shown.
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
    public var count: Int { segments.reduce(0) { $0 + $1.shownCount } }
    /// Posts of the backend's list loaded so far: ``count`` plus the posts
    /// ``Configuration/unseenOnly`` hides. How far into the backend's list the feed
    /// reaches (the position of its last loaded post), whatever is hidden.
    public var listedCount: Int { segments.reduce(0) { $0 + $1.listedCount } }
    /// Whether pages follow the last one loaded.
    public var hasMore: Bool { nextKey != nil }
    /// Whether a load of the next page is in flight.
    public var isLoadingMore: Bool { loadFlight != nil }
    /// Whether the background catalog load is running.
    public var isBackgroundLoading: Bool { backgroundTask != nil }
    /// Every loaded post id, in order.
    public var loadedPostIDs: [PostID] { segments.flatMap(\.postIDs) }
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

    /// The 0-based positions in the backend's list of the posts at feed indices `range`
    /// (clamped to what is loaded): the same as the indices unless
    /// ``Configuration/unseenOnly`` hid posts before them. Numbers shown to the reader are
    /// these positions plus one. One pass over the pages, however long the range.
    public func listPositions(in range: Range<Int>) -> [Int] {
        var positions: [Int] = []
        var index = 0
        var listed = 0
        for segment in segments {
            defer {
                index += segment.shownCount
                listed += segment.listedCount
            }
            let (lower, upper) = (max(range.lowerBound, index), min(range.upperBound, index + segment.shownCount))
            guard lower < upper else { continue }
            guard !segment.hidesNone else {
                positions += (lower..<upper).map { listed + $0 - index }
                continue
            }
            // Hidden posts sit between shown ones: look each shown id up among the listed.
            let offsets = Dictionary(segment.listedPostIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let shown = segment.postIDs
            for position in lower..<upper {
                let offset = position - index
                positions.append(listed + (offsets[shown[offset]] ?? offset))
            }
        }
        return positions
    }

    /// The global index of post `id`, if loaded.
    public func index(ofPostID id: PostID) -> Int? {
        var base = 0
        for segment in segments {
            if let offset = segment.offset(ofPostID: id) { return base + offset }
            base += segment.shownCount
        }
        return nil
    }

    func locate(_ index: Int) -> (segment: Int, offset: Int)? {
        guard index >= 0 else { return nil }
        var base = 0
        for (position, segment) in segments.enumerated() {
            if index < base + segment.shownCount { return (position, index - base) }
            base += segment.shownCount
        }
        return nil
    }
}
