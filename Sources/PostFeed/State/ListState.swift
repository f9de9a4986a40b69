import Foundation

/// Where the reader is in one list mode, saved as JSON so the next run puts them back.
///
/// One state per mode (``ListMode``), one file each (see ``ListStateStore``). The fields
/// that belong to one mode only are documented as such and left empty in the other.
///
/// **Restoring infinite scroll**: fetch ``loadedPageKeys`` in order (from the page cache
/// when it has them), then keep loading from ``nextPageKey`` until the list holds
/// ``anchor``'s index or ends; then show ``restoredIndex(in:)``.
///
/// **Restoring a page**: fetch page ``currentPage`` (``currentPageKey`` when known; else
/// `PostRepository.pageKey(forPageNumber:)`, else walk from the first page), then show
/// ``restoredIndex(in:)`` within it.
///
/// To carry the place into the other mode or a new page size, see
/// ``switched(to:pageSize:firstPageKey:)``.
public struct ListState: Sendable, Equatable {
    /// The schema version this build writes and the newest it reads. Version 3 writes ids
    /// that are no canonical integers as strings (`"t3_1abc"`, `"109876543210987654321"`),
    /// in the anchor, the seen set and ``loadedPostIDs``; version 2 writes ``loadedPostIDs``
    /// as runs of consecutive ids (`[[1, 500], 777]`); version 1 files, a plain list of
    /// integer ids, are still read. Files of versions 1 and 2 hold integer ids only, so
    /// reading them as version 3 is their migration.
    public static let currentVersion = 3

    /// Schema version of the file; ``currentVersion`` for new states.
    public var version: Int
    /// The mode this state belongs to; it is saved in that mode's file.
    public var mode: ListMode
    /// `BackendDescription.identity` of the backend the state was saved for; state is never
    /// restored into another backend.
    public var backendIdentity: String
    /// Posts per page when the state was saved.
    public var pageSize: Int
    /// When the state was saved. Written to the second, in ISO-8601 (UTC).
    public var savedAt: Date
    /// Counts the saves of this mode's file: each save writes one more than the file it
    /// replaced. A save that started from an older generation than the file now holds was
    /// overtaken by another process, and ``ListStateStore`` merges the two instead of
    /// erasing the other's progress. 0 in files written before generations existed.
    public var generation: Int

    // MARK: Both modes

    /// The post at the top of the reader's view; `nil` when nothing was shown.
    public var anchor: ScrollAnchor?
    /// Total number of posts, when the backend said.
    public var totalCount: Int?
    /// `true` when the list's last page had been reached (infinite) or the current page is
    /// the last (paged).
    public var endReached: Bool
    /// Posts shown in this and earlier runs, for the "unseen only" option.
    public var seenPostIDs: PostIDSet
    /// The ids of the posts the reader had, in order. Infinite: the loaded posts from the
    /// top of the list. Paged: the posts of the current page. Used to find the anchor's
    /// nearest surviving neighbour when the anchor post is gone; after a change of mode
    /// or page size it may hold fewer posts than the pages in ``loadedPageKeys``.
    public var loadedPostIDs: [PostID]
    /// The keys of pages 1, 2, 3, … in ``pageSize`` pages, as far as known. Infinite: the
    /// pages to fetch, in order, to rebuild the list. Paged: the pages already walked, so a
    /// cursor or link backend can go back without starting over.
    public var loadedPageKeys: [PageKey]
    /// Infinite: how many of ``loadedPostIDs`` each page of ``loadedPageKeys`` holds (a page
    /// trimmed of duplicates holds fewer than ``pageSize``), so the list is rebuilt page by
    /// page from the ids alone. `nil` when unknown (older files, after a switch): the pages
    /// are then read to learn their posts.
    public var loadedPageCounts: [Int]?

    // MARK: Infinite scroll only

    /// How far into the list, in the backend's positions, the reader was **shown** posts in
    /// the backend's order: `list` continues with the post at this 0-based position. Posts
    /// loaded past it (a page loaded ahead, the background catalog walk, the last page of a
    /// list rebuilt in another page size) were not shown, and the next `list` shows them.
    /// `nil` in files written before it existed (every loaded post counts as shown) and in
    /// paged state.
    public var shownLength: Int?

    /// The key of the next page to append; `nil` once the end of the list was reached.
    /// Always `nil` in paged state.
    public var nextPageKey: PageKey?

    // MARK: Paged only

    /// 1-based number of the page shown; `nil` in infinite state.
    public var currentPage: Int?
    /// The key of that page, when known; `nil` when the backend's cursors or links must be
    /// walked to reach it. Always `nil` in infinite state.
    public var currentPageKey: PageKey?

    /// A state of the current schema version; fill in the fields of `mode`.
    public init(
        mode: ListMode,
        backendIdentity: String,
        pageSize: Int,
        savedAt: Date = Date(),
        anchor: ScrollAnchor? = nil,
        totalCount: Int? = nil,
        endReached: Bool = false,
        seenPostIDs: PostIDSet = [],
        loadedPostIDs: [PostID] = [],
        loadedPageKeys: [PageKey] = [],
        nextPageKey: PageKey? = nil,
        currentPage: Int? = nil,
        currentPageKey: PageKey? = nil
    ) {
        self.version = Self.currentVersion
        self.mode = mode
        self.backendIdentity = backendIdentity
        self.pageSize = pageSize
        self.savedAt = savedAt
        self.generation = 0
        self.anchor = anchor
        self.totalCount = totalCount
        self.endReached = endReached
        self.seenPostIDs = seenPostIDs
        self.loadedPostIDs = loadedPostIDs
        self.loadedPageKeys = loadedPageKeys
        self.nextPageKey = nextPageKey
        self.currentPage = currentPage
        self.currentPageKey = currentPageKey
        self.loadedPageCounts = nil
        self.shownLength = nil
    }

    /// 0-based index in the whole list of `loadedPostIDs[0]`: 0 in infinite state, the
    /// first post of the current page in paged state.
    public var firstLoadedIndex: Int {
        switch mode {
        case .infinite: 0
        case .paged: PlaceConverter.firstIndex(ofPage: currentPage ?? 1, pageSize: pageSize)
        }
    }

    /// The largest page size a state may hold: well above any backend's (DESIGN.md: 100),
    /// small enough that page arithmetic on it cannot overflow with any page number a
    /// state can name.
    public static let maximumPageSize = 1_000

    /// The most ids ``loadedPostIDs`` may hold: far past any list a reader scrolls (the
    /// background catalog walk stops at ``InfiniteFeed/maximumCatalogPosts``), small enough
    /// that a state file cannot make a restore hold an unbounded list (a run `[1, 10^18]`
    /// is a few bytes). Decoding refuses more; ``ListStateStore`` trims a longer list before
    /// saving.
    public static let maximumLoadedPostCount = 5_000_000

    /// What is wrong with this state, or `nil` when it can be saved and restored.
    ///
    /// Checked on every load and save, so a state that would send the reader somewhere
    /// nonsensical (an anchor outside the loaded posts, a page whose first post's index
    /// overflows) is set aside with this reason instead of being used.
    var problem: String? {
        if version < 1 { return "version \(version) is not a schema version" }
        if generation < 0 { return "generation \(generation) is negative" }
        if backendIdentity.isEmpty { return "backendIdentity is empty" }
        if pageSize < 1 { return "pageSize \(pageSize) is not a positive page size" }
        if pageSize > Self.maximumPageSize { return "pageSize \(pageSize) is larger than any page size (1…\(Self.maximumPageSize))" }
        if let totalCount, totalCount < 0 { return "totalCount \(totalCount) is negative" }
        if let anchor, anchor.index < 0 { return "anchor index \(anchor.index) is negative" }
        if let shownLength, shownLength < 0 { return "shownLength \(shownLength) is negative" }
        for key in loadedPageKeys + [nextPageKey, currentPageKey].compactMap({ $0 }) {
            switch key {
            case .number(let number) where number < 1: return "page key \(key) is not a page number (pages start at 1)"
            case .offset(let offset) where offset < 0: return "page key \(key) is a negative offset"
            default: continue
            }
        }
        if let counts = loadedPageCounts, let problem = Self.pageCountsProblem(counts, keys: loadedPageKeys.count, ids: loadedPostIDs.count) {
            return problem
        }
        switch mode {
        case .paged:
            guard let currentPage else { return "paged state has no currentPage" }
            if currentPage < 1 { return "currentPage \(currentPage) is not a page number (pages start at 1)" }
            if nextPageKey != nil { return "paged state has a nextPageKey (infinite scroll only)" }
            let (first, overflow) = (currentPage - 1).multipliedReportingOverflow(by: pageSize)
            if overflow || first > Int.max - pageSize {
                return "currentPage \(currentPage) is too large for page size \(pageSize)"
            }
            if let anchor, anchor.index < first || anchor.index >= first + pageSize {
                return "anchor index \(anchor.index) is not on page \(currentPage) (indexes \(first)…\(first + pageSize - 1))"
            }
        case .infinite:
            if currentPage != nil || currentPageKey != nil {
                return "infinite state has a currentPage (paged only)"
            }
            // Posts are numbered by their place in the list: a post listed twice numbers
            // every post after it wrongly.
            if let problem = Self.duplicateProblem(loadedPostIDs) { return problem }
            if let anchor, anchor.index >= anchorLimit {
                return "anchor index \(anchor.index) is outside the list (\(loadedPostIDs.count) loaded posts"
                    + "\(totalCount.map { ", \($0) in all" } ?? ""))"
            }
        }
        return pageKeysProblem
    }

    /// Infinite: the anchor's index must be below this. Within the loaded pages; past
    /// them only while the list goes on, and never past the total or the pages a state
    /// may list (``PageKeyPlan/maximumListedPages``): restoring loads forward to it.
    private var anchorLimit: Int {
        let loaded = coveredLength
        guard nextPageKey != nil, !endReached else { return loaded }
        let reachable = PlaceConverter.firstIndex(ofPage: PageKeyPlan.maximumListedPages + 1, pageSize: pageSize)
        return max(loaded, min(totalCount ?? reachable, reachable))
    }

    /// How many posts the loaded pages hold, at least: the ids known, or the pages times
    /// the page size.
    var coveredLength: Int {
        let (pages, overflow) = loadedPageKeys.count.multipliedReportingOverflow(by: pageSize)
        return max(loadedPostIDs.count, overflow ? Int.max : pages)
    }

    /// Page numbers and offsets follow from the pages before them (numbers count up from
    /// 1, offsets grow from 0 by at most a page each): a key the loaded pages do not lead
    /// to was not saved by PostFeed. Checked when every key is a number, or every key an
    /// offset, as a backend of that style saves them; cursors and links cannot be checked.
    private var pageKeysProblem: String? {
        var named = loadedPageKeys.enumerated().map { ("loadedPageKeys[\($0.offset)]", $0.element) }
        if let nextPageKey { named.append(("nextPageKey", nextPageKey)) }
        let numbers = named.compactMap { if case .number(let number) = $0.1 { number } else { nil } }
        let offsets = named.compactMap { if case .offset(let offset) = $0.1 { offset } else { nil } }
        if numbers.count == named.count {
            for (page, number) in numbers.enumerated() where number != page + 1 {
                let before = "\(page) page\(page == 1 ? "" : "s")"
                return "\(named[page].0) is page \(number), but the \(before) before it make it page \(page + 1)"
            }
            if mode == .paged, case .number(let number)? = currentPageKey, let currentPage, number != currentPage {
                return "currentPageKey is page \(number), not currentPage \(currentPage)"
            }
        } else if offsets.count == named.count {
            for (page, offset) in offsets.enumerated() {
                let (limit, overflow) = page.multipliedReportingOverflow(by: pageSize)
                let previous = page > 0 ? offsets[page - 1] : 0
                guard page == 0 ? offset != 0 : (overflow || offset > limit || offset <= previous) else { continue }
                let reach = page == 0
                    ? "the first page is at offset 0"
                    : "past offset \(previous), at most \(overflow ? Int.max : limit) after \(page) page\(page == 1 ? "" : "s") of \(pageSize)"
                return "\(named[page].0) is offset \(offset), which the pages before it cannot lead to (\(reach))"
            }
        }
        return nil
    }

    /// The first post `ids` lists twice, named with both places.
    private static func duplicateProblem(_ ids: [PostID]) -> String? {
        var seen = Set<PostID>()
        seen.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            let first = ids.firstIndex(of: id) ?? index
            return "loadedPostIDs lists post \(id) twice (at indexes \(first) and \(index))"
        }
        return nil
    }

    private static func pageCountsProblem(_ counts: [Int], keys: Int, ids: Int) -> String? {
        if counts.count > keys { return "loadedPageCounts lists \(counts.count) pages, but \(keys) are loaded" }
        var sum = 0
        for count in counts {
            guard count >= 0 else { return "loadedPageCounts holds a negative count (\(count))" }
            let (next, overflow) = sum.addingReportingOverflow(count)
            guard !overflow, next <= ids else { return "loadedPageCounts add up to more than the \(ids) loaded posts" }
            sum = next
        }
        return nil
    }
}
