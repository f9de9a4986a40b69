import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization

/// What resuming a list mode found.
public struct ResumeReport: Sendable {
    /// Where to put the reader: a global index (infinite) or an index in the page (paged).
    public var anchorIndex: Int
    /// A saved state was used.
    public var restored: Bool
    /// One line each: a state file set aside and why, a page size that changed.
    public var notices: [String]
    /// Infinite: the feed index of the first post the saved place had not reached yet, when
    /// the feed holds posts past it; `nil` when every loaded post was read.
    ///
    /// Set when the saved list holds posts the reader was never shown (``ListState/shownLength``:
    /// a page loaded ahead, a browse's catalog walk), or the page size changed since the
    /// save: the list is rebuilt in pages of the new size, and the last of them may reach
    /// past the posts the last run showed (10 → 25 after posts 1–30 loads posts 26–50).
    /// Those posts are the reader's next ones:
    /// ``FeedClient/readInfinite(pages:after:onLoading:onPage:)`` hands them over first.
    public var firstUnreadIndex: Int?

    /// A report; `firstUnreadIndex` only for a resumed infinite feed rebuilt in another page size.
    public init(anchorIndex: Int, restored: Bool, notices: [String], firstUnreadIndex: Int? = nil) {
        self.anchorIndex = anchorIndex
        self.restored = restored
        self.notices = notices
        self.firstUnreadIndex = firstUnreadIndex
    }

    /// Starting at the top without looking at saved state (a restart).
    public static let fresh = ResumeReport(anchorIndex: 0, restored: false, notices: [])
}

/// What switching modes did.
public struct ModeSwitchReport: Sendable {
    /// The mode the place came from.
    public var from: ListMode
    /// The mode now current.
    public var to: ListMode
    /// The page paged mode opens at (when switching to paged).
    public var page: Int?
    /// The post kept in view, and its 0-based index in the whole list.
    public var anchor: ScrollAnchor?
    /// There was no place to carry over: the new mode starts at the top.
    public var startedFresh: Bool
    /// `to` was already the current mode: nothing was converted or saved, and `page` and
    /// `anchor` are the place it keeps.
    public var alreadyCurrent: Bool
    /// One line each: a state file set aside, another process's place replaced.
    public var notices: [String]
}

extension FeedClient {
    // MARK: Current mode

    /// The mode used last: the one whose state was saved most recently (infinite when
    /// neither has state). Unusable state files are set aside and reported in `notices`.
    public func currentMode() -> (mode: ListMode, notices: [String]) {
        var notices: [String] = []
        let states = loadBothStates(notices: &notices)
        return (states.current, notices)
    }

    /// Both modes' usable states, and which of them was saved last.
    private func loadBothStates(notices: inout [String]) -> (infinite: ListState?, paged: ListState?, current: ListMode) {
        let infinite = loadState(.infinite, notices: &notices)
        let paged = loadState(.paged, notices: &notices)
        switch (infinite, paged) {
        case (let i?, let p?):
            // `savedAt` has whole seconds; two saves within one second are told apart by
            // the files' modification times.
            let pagedIsNewer = p.savedAt != i.savedAt
                ? p.savedAt > i.savedAt
                : modificationDate(of: .paged) > modificationDate(of: .infinite)
            return (i, p, pagedIsNewer ? .paged : .infinite)
        case (nil, _?): return (infinite, paged, .paged)
        default: return (infinite, paged, .infinite)
        }
    }

    // MARK: Infinite

    /// Puts the infinite feed back where the last run left it, reading pages from the page
    /// cache (the network only for pages the cache lost). A fresh feed when there is no
    /// usable state; nothing is fetched then.
    public func resumeInfinite() async throws(RepositoryError) -> ResumeReport {
        var notices: [String] = []
        guard var state = loadState(.infinite, notices: &notices) else {
            shownLength.withLock { $0 = 0 }
            // Posts shown in the popularity order are seen, also before any place is saved.
            let popular = popularityShownPostIDs
            if !popular.isEmpty, await infinite.count == 0 {
                await infinite.restore(
                    InfiniteFeed.Snapshot(segments: [], nextKey: repository.firstPageKey, totalCount: nil), hiddenPostIDs: popular)
            }
            return ResumeReport(anchorIndex: 0, restored: false, notices: notices)
        }
        // In the backend's positions: how far the saved list reached, so posts the new page
        // size's last page adds past it are handed over as unread, not skipped.
        // Posts loaded but never shown (loaded ahead, by the catalog walk, or by the last page
        // of a list rebuilt in another page size) are the reader's next ones too.
        let readThrough = state.readLength
        shownLength.withLock { $0 = readThrough }
        if state.pageSize != configuration.pageSize {
            notices.append("page size changed from \(state.pageSize) to \(configuration.pageSize); keeping your place")
            state = state.resized(to: configuration.pageSize, firstPageKey: repository.firstPageKey)
        }
        let snapshot = try await snapshot(restoring: state)
        await infinite.restore(snapshot, hiddenPostIDs: state.seenPostIDs.union(popularityShownPostIDs))
        if let anchor = state.anchor, anchor.index >= 0 {
            // A place carried over from paged mode on a cursor backend may lie past the pages
            // the state could name: load on (cache first) until the list holds it.
            var pages = 0
            while anchor.index >= (await infinite.count), await infinite.hasMore, pages < PageKeyPlan.maximumListedPages {
                guard try await infinite.loadMore() > 0 else { break }
                pages += 1
            }
            // Load the anchor's page (cache first) so a post deleted upstream is noticed and
            // the reader lands on its nearest surviving neighbour.
            let around = max(0, anchor.index - 1)
            _ = try await infinite.posts(in: around..<PlaceConverter.saturatingAdd(around, 2))
        }
        let ids = await infinite.loadedPostIDs
        let index = state.restoredIndex(in: ids) ?? 0
        var firstUnread: Int?
        if readThrough < (await infinite.listedCount) {
            // Feed indices skip posts hidden by `unseenOnly`: the first post at or past the
            // backend position the reader was shown through.
            let positions = await infinite.listPositions(in: 0..<ids.count)
            firstUnread = positions.firstIndex { $0 >= readThrough }
        }
        return ResumeReport(anchorIndex: index, restored: true, notices: notices, firstUnreadIndex: firstUnread)
    }

    /// Starts the infinite feed over from the top without restoring the saved place, which
    /// stays on disk until the next save replaces it. Posts shown in earlier runs are still
    /// known, so ``InfiniteFeed/Configuration/unseenOnly`` hides them.
    public func restartInfinite() async -> ResumeReport {
        var notices: [String] = []
        let seen = (loadState(.infinite, notices: &notices)?.seenPostIDs ?? PostIDSet()).union(popularityShownPostIDs)
        shownLength.withLock { $0 = 0 }
        await infinite.restore(InfiniteFeed.Snapshot(segments: [], nextKey: repository.firstPageKey, totalCount: nil), hiddenPostIDs: seen)
        return ResumeReport(anchorIndex: 0, restored: false, notices: notices)
    }

    /// Saves the infinite feed's state with the post at feed index `anchorIndex` at the top
    /// of the view, and `shownPostIDs` added to the posts seen.
    ///
    /// The state holds the posts as the backend lists them, hidden ones (``InfiniteFeed/Configuration/unseenOnly``)
    /// included, and the anchor's index in that list: post numbers are the backend's
    /// positions, so a switch to paged mode opens the page that holds the post in view.
    ///
    /// Posts seen are what ``InfiniteFeed/Configuration/unseenOnly`` hides in later runs, so
    /// only posts the reader was shown count: pass them (``shownPostIDs(in:)`` gives a
    /// range's). Posts loaded but never shown (loaded ahead, or by a background walk of
    /// the catalog) stay unseen; posts seen in earlier runs stay seen.
    ///
    /// ```swift
    /// let range = start..<(await client.infinite.count)
    /// // … show the posts in `range` …
    /// try await client.saveInfinite(anchorIndex: start, shownPostIDs: await client.shownPostIDs(in: range))
    /// ```
    ///
    /// Another process may have saved since this client loaded the state: the two are
    /// merged (see ``ListStateStore/save(_:basedOn:makingRoom:)``).
    /// - Returns: one line each when another process's place was replaced, not merged.
    @discardableResult
    public func saveInfinite(anchorIndex: Int, shownPostIDs: PostIDSet = []) async throws(ListStateError) -> [String] {
        let state = infiniteState(
            await infinite.snapshot(), anchorIndex: anchorIndex, shownPostIDs: shownPostIDs, shownLength: shownLength.withLock { $0 })
        return try save(state).notices
    }

    /// The infinite list state to save for a feed's `snapshot`: the post at feed index
    /// `anchorIndex` in view, `shownPostIDs` seen, the reader shown through backend position
    /// `shownLength` (`nil`: everything loaded).
    func infiniteState(_ snapshot: InfiniteFeed.Snapshot, anchorIndex: Int, shownPostIDs: PostIDSet, shownLength: Int?) -> ListState {
        let shown = snapshot.postIDs
        // Each post once, at its first place: list state numbers posts by their place, and
        // refuses a list naming a post twice (a page read back that overlaps an earlier one).
        var known = Set<PostID>()
        known.reserveCapacity(shown.count)
        let pages = snapshot.segments.map { segment in segment.listedPostIDs.filter { known.insert($0).inserted } }
        let listed = pages.flatMap { $0 }
        var anchor: ScrollAnchor?
        if shown.indices.contains(anchorIndex) {
            let id = shown[anchorIndex]
            anchor = ScrollAnchor(postID: id, index: listed.firstIndex(of: id) ?? anchorIndex)
        }
        var state = ListState(
            mode: .infinite, backendIdentity: backend.identity, pageSize: configuration.pageSize, savedAt: Date(),
            anchor: anchor, totalCount: snapshot.totalCount, endReached: snapshot.nextKey == nil, seenPostIDs: shownPostIDs,
            loadedPostIDs: listed, loadedPageKeys: snapshot.segments.map(\.key), nextPageKey: snapshot.nextKey)
        state.loadedPageCounts = pages.map(\.count)
        // The place is what was shown (DESIGN.md): posts loaded past it (ahead, by the
        // catalog walk) stay loaded, and the next run shows them first.
        state.shownLength = shownLength.map { min($0, listed.count) }
        return state
    }

    /// Records that the reader was shown the infinite feed's posts, in the backend's order,
    /// up to and including the post at 0-based backend position `position` (a post's
    /// number less one): the next `list` continues after the furthest such post. Posts
    /// loaded but not shown, or shown in another order (popularity), are not passed here.
    public func markShown(throughPosition position: Int) {
        let length = PlaceConverter.saturatingAdd(max(position, -1), 1)
        shownLength.withLock { $0 = max($0 ?? 0, length) }
    }

    /// Records that the infinite feed's posts at feed indices `range` were shown in the
    /// backend's order (see ``markShown(throughPosition:)``).
    public func markShown(feedIndices range: Range<Int>) async {
        guard let last = range.last, last >= 0 else { return }
        guard let position = await infinite.listPositions(in: last..<(last + 1)).first else { return }
        markShown(throughPosition: position)
    }

    /// The ids of the infinite feed's posts at feed indices `range` (clamped to what is
    /// loaded): what to pass ``saveInfinite(anchorIndex:shownPostIDs:)`` after showing them.
    public func shownPostIDs(in range: Range<Int>) async -> PostIDSet {
        let ids = await infinite.loadedPostIDs
        let lower = min(max(range.lowerBound, 0), ids.count)
        let upper = min(max(range.upperBound, lower), ids.count)
        return PostIDSet(ids[lower..<upper])
    }

    /// Saves `state` on top of the generation this client last loaded or saved; on a full
    /// disk, room is made in the caches (``makeRoomInCaches(_:)``) and the write tried again.
    private func save(_ state: ListState) throws(ListStateError) -> ListStateStore.SaveOutcome {
        let outcome = try stateStore.save(
            state, basedOn: stateGenerations.withLock { $0[state.mode] } ?? 0, makingRoom: makeRoomInCaches)
        stateGenerations.withLock { $0[state.mode] = outcome.generation }
        return outcome
    }

    /// Frees `bytes` of disk for a state save that found the disk full: the reader's place
    /// is worth more than anything cached. Least recently used images go first (the bulk
    /// of the cache, and refetched at will), then pages. Returns the bytes freed.
    private func makeRoomInCaches(_ bytes: Int) -> Int {
        var freed = imageCache.evictLeastRecentlyUsed(freeing: bytes)
        if freed < bytes { freed += pageCache.evictLeastRecentlyUsed(freeing: bytes - freed) }
        logger.notice("disk full while saving list state: freed \(freed) bytes of cache for it")
        return freed
    }

    /// Rebuilds the feed's pages from state: ids split by the saved page counts; pages whose
    /// ids the state lacks (e.g. after a switch from paged mode) are read, cache first.
    func snapshot(restoring state: ListState) async throws(RepositoryError) -> InfiniteFeed.Snapshot {
        var segments: [InfiniteFeed.Segment] = []
        var ids = state.loadedPostIDs[...]
        let counts = state.loadedPageCounts
        for (position, key) in state.loadedPageKeys.enumerated() {
            let count = counts.flatMap { $0.indices.contains(position) ? $0[position] : nil } ?? state.pageSize
            if ids.count >= count, count > 0 || counts != nil {
                segments.append(InfiniteFeed.Segment(key: key, postIDs: Array(ids.prefix(count))))
                ids = ids.dropFirst(count)
            } else {
                let page = try await cacheFirstPage(key)
                segments.append(InfiniteFeed.Segment(key: key, postIDs: page.posts.map(\.id)))
                ids = []
            }
        }
        return InfiniteFeed.Snapshot(
            segments: segments, nextKey: state.endReached ? nil : state.nextPageKey, totalCount: state.totalCount)
    }

    // MARK: Paged

    /// Opens numbered mode at `page`, or where the last run left it (page 1 when fresh).
    /// Out-of-range pages throw `.pageOutOfRange` naming the valid range.
    public func resumePaged(page requested: Int? = nil) async throws(RepositoryError) -> ResumeReport {
        var notices: [String] = []
        var state = loadState(.paged, notices: &notices)
        if let saved = state, saved.pageSize != configuration.pageSize {
            notices.append("page size changed from \(saved.pageSize) to \(configuration.pageSize); keeping your place")
            state = saved.resized(to: configuration.pageSize, firstPageKey: repository.firstPageKey)
        }
        if let state, let page = state.currentPage, let key = state.currentPageKey {
            await paged.learn(key: key, forPage: page)
        }
        let target = requested ?? state?.currentPage ?? 1
        do {
            try await paged.goTo(page: target)
        } catch where error.code == .pageOutOfRange && requested == nil && target > 1 {
            // The saved page is past the end (the backend shrank, the file was edited): the
            // reader's place is as near as it can be on the last page.
            try await paged.last()
            let last = await paged.currentPage
            notices.append(
                "the saved page \(target) is past the end of the list now (\(last) page\(last == 1 ? "" : "s")); "
                    + "showing the last page, \(last)")
            let ids = await paged.posts.map(\.id)
            let anchorIndex = state?.anchor.flatMap { ids.firstIndex(of: $0.postID) } ?? 0
            return ResumeReport(anchorIndex: anchorIndex, restored: true, notices: notices)
        }
        var anchorIndex = 0
        if let state, requested == nil || requested == state.currentPage {
            anchorIndex = state.restoredIndex(in: await paged.posts.map(\.id)) ?? 0
        }
        return ResumeReport(anchorIndex: anchorIndex, restored: state != nil, notices: notices)
    }

    /// Saves numbered mode's state with the post at `anchorIndexInPage` at the top of the
    /// view, merged with another process's save as ``saveInfinite(anchorIndex:shownPostIDs:)`` is.
    /// - Returns: one line each when another process's place was replaced.
    @discardableResult
    public func savePaged(anchorIndexInPage: Int) async throws(ListStateError) -> [String] {
        let posts = await paged.posts
        let page = await paged.currentPage
        guard page >= 1 else { return [] }
        let anchor = posts.indices.contains(anchorIndexInPage)
            // A walked page (a feed's) may hold more posts than the page size: the index
            // stays on the page (a state file says where its page's posts are), and the
            // post, which restores the place first, is the one in view.
            ? ScrollAnchor(
                postID: posts[anchorIndexInPage].id, page: page,
                indexInPage: min(anchorIndexInPage, max(configuration.pageSize - 1, 0)), pageSize: configuration.pageSize)
            : nil
        let state = ListState(
            mode: .paged, backendIdentity: backend.identity, pageSize: configuration.pageSize, savedAt: Date(),
            anchor: anchor, totalCount: await paged.totalCount, endReached: !(await paged.hasNext),
            seenPostIDs: PostIDSet(posts.map(\.id)), loadedPostIDs: posts.map(\.id), currentPage: page,
            currentPageKey: await paged.currentPageKey)
        return try save(state).notices
    }

    // MARK: Switching

    /// Makes `mode` the current mode, carrying the reader's place over from the other one:
    /// infinite at post #37 with page size 10 opens paged mode at page 4, and back.
    ///
    /// Asking for the mode that is already current changes nothing: its own place is newer
    /// than the other mode's, so converting that one would move the reader back.
    public func switchMode(to mode: ListMode) throws(ListStateError) -> ModeSwitchReport {
        let source: ListMode = mode == .paged ? .infinite : .paged
        var notices: [String] = []
        let states = loadBothStates(notices: &notices)
        let saved = { (mode: ListMode) in mode == .paged ? states.paged : states.infinite }
        if states.current == mode {
            let state = saved(mode)
            return ModeSwitchReport(
                from: mode, to: mode, page: state?.currentPage, anchor: state?.anchor,
                startedFresh: false, alreadyCurrent: true, notices: notices)
        }
        var target: ListState
        var fresh = false
        if let state = saved(source) {
            // An infinite list keeps its page size here: resizing it would count pages of the
            // new size as loaded past what the reader was shown, and only a resume, which
            // hands such posts over (`ResumeReport.firstUnreadIndex`), may resize it.
            let size = mode == .infinite ? saved(mode)?.pageSize ?? state.pageSize : configuration.pageSize
            let converted = state.switched(to: mode, pageSize: size, firstPageKey: repository.firstPageKey)
            // The mode keeps what it loaded; only the reader's place moves.
            target = saved(mode).map {
                $0.resized(to: size, firstPageKey: repository.firstPageKey).movingPlace(to: converted)
            } ?? converted
            target.savedAt = Date()
        } else {
            try keepOtherBackendsPlace(mode)
            fresh = true
            target = ListState(
                mode: mode, backendIdentity: backend.identity, pageSize: configuration.pageSize, savedAt: Date(),
                loadedPageKeys: [], nextPageKey: mode == .infinite ? repository.firstPageKey : nil,
                currentPage: mode == .paged ? 1 : nil, currentPageKey: mode == .paged ? repository.firstPageKey : nil)
        }
        let outcome = try save(target)
        return ModeSwitchReport(
            from: source, to: mode, page: outcome.state.currentPage, anchor: outcome.state.anchor, startedFresh: fresh,
            alreadyCurrent: false, notices: notices + outcome.notices)
    }

    /// Switching makes no request, so a mistyped `--base-url` must not displace the place
    /// another backend saved for `mode`: a fresh state is written only where there is none.
    private func keepOtherBackendsPlace(_ mode: ListMode) throws(ListStateError) {
        guard case .discarded(let reason, _) = stateStore.load(mode: mode, backendIdentity: backend.identity, setAside: .onNextSave),
              reason.kind == .otherBackend else { return }
        throw ListStateError(
            .otherBackend, url: reason.file,
            message: "not switching to \(mode) mode: \(reason.file.path) holds the place of another backend, and "
                + "this backend (\(backend.identity)) has none to carry over; the file is left as it is. "
                + "Check the backend options, or show a page of this backend to start here",
            recovery: .showPageOfThisBackend)
    }

    // MARK: Helpers

    private func loadState(_ mode: ListMode, notices: inout [String]) -> ListState? {
        // Unusable files are set aside only when this run saves: a run that fails first
        // (an unreachable backend, a bad page) leaves State/ exactly as it was.
        // The generation loaded is what this client's next save of `mode` builds on.
        switch stateStore.load(mode: mode, backendIdentity: backend.identity, setAside: .onNextSave) {
        case .none:
            stateGenerations.withLock { $0[mode] = 0 }
            return nil
        case .restored(let state):
            stateGenerations.withLock { $0[mode] = state.generation }
            return state
        case .discarded(let reason, _):
            stateGenerations.withLock { $0[mode] = 0 }
            // Said once per client: a second load (browse reads the current mode, then
            // opens it) finds the same file, still waiting to be set aside on the next save.
            if reportedStateProblems.withLock({ $0.insert(reason.message).inserted }) { notices.append(reason.message) }
            return nil
        }
    }

    private func modificationDate(of mode: ListMode) -> Date {
        // Through the State folder's handle: a linked state file is not looked through.
        stateStore.modificationDate(for: mode) ?? .distantPast
    }

    private func cacheFirstPage(_ key: PageKey) async throws(RepositoryError) -> Page {
        do {
            return try await repository.page(key, cachePolicy: .cacheOnly, priority: .high)
        } catch where error.code == .notCached {
            return try await repository.page(key, cachePolicy: .useCache, priority: .high)
        }
    }
}

