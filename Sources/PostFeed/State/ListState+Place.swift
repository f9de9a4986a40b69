extension ListState {
    /// Where to put the reader back, as an index into `currentPostIDs`: the posts now in the
    /// list (infinite) or on the current page (paged), in order.
    ///
    /// The anchor post's index when it is still there; else its nearest surviving neighbour
    /// in the saved order (``loadedPostIDs``); else the anchor's old index, clamped.
    /// `0` when the state has no anchor; `nil` when `currentPostIDs` is empty.
    /// See ``PlaceConverter/restoredIndex(of:savedIDs:currentIDs:)``.
    public func restoredIndex(in currentPostIDs: [PostID]) -> Int? {
        guard !currentPostIDs.isEmpty else { return nil }
        guard let anchor else { return 0 }
        // `firstLoadedIndex` is never negative, so negating it cannot overflow.
        let relative = ScrollAnchor(
            postID: anchor.postID, index: PlaceConverter.saturatingAdd(anchor.index, -firstLoadedIndex))
        return PlaceConverter.restoredIndex(of: relative, savedIDs: loadedPostIDs, currentIDs: currentPostIDs)
    }

    /// The same place in `mode` with `pageSize` posts per page: what to restore when the
    /// reader switches mode, or when this run's page size differs from the saved one.
    ///
    /// The anchor's index in the whole list is what survives. Infinite at post #37 with page
    /// size 10 becomes page 4 with the same anchor; that page back in infinite mode becomes
    /// a list whose pages 1…4 hold post #37 again:
    ///
    /// ```swift
    /// let paged = infinite.switched(to: .paged, pageSize: 10, firstPageKey: repository.firstPageKey)
    /// paged.currentPage  // 4
    /// ```
    ///
    /// Page keys come from the state when the page size is unchanged, else from the style
    /// of `firstPageKey` (page numbers, offsets). Cursor and link backends cannot name a
    /// page they have not walked: such a paged state has no ``currentPageKey``, and such
    /// an infinite state lists the pages it knows and continues from the last of them.
    ///
    /// - Parameters:
    ///   - mode: the mode to restore into; the same mode only changes the page size.
    ///   - pageSize: posts per page in this run (below 1 counts as 1).
    ///   - firstPageKey: the key of the first page (`PostRepository.firstPageKey`).
    /// - Returns: `self` when neither the mode nor the page size changes.
    public func switched(to mode: ListMode, pageSize: Int, firstPageKey: PageKey) -> ListState {
        let newSize = max(pageSize, 1)
        guard mode != self.mode || newSize != self.pageSize else { return self }
        let keys = PageKeyPlan(
            firstPageKey: firstPageKey, pageSize: newSize, known: newSize == self.pageSize ? knownPageKeys : [:])

        var result = self
        result.version = Self.currentVersion
        // Page boundaries of another page size or mode say nothing about the new pages.
        result.loadedPageCounts = nil
        // Positions shown are the same in any page size; a paged place says nothing of them.
        if mode == .paged || self.mode == .paged { result.shownLength = nil }
        result.mode = mode
        result.pageSize = newSize
        if result.anchor == nil, self.mode == .paged, let first = loadedPostIDs.first {
            result.anchor = ScrollAnchor(postID: first, index: firstLoadedIndex)
        }
        let placeIndex = result.anchor?.index

        switch mode {
        case .paged:
            let page = PlaceConverter.page(forIndex: placeIndex ?? 0, pageSize: newSize)
            result.currentPage = page
            result.currentPageKey = keys.key(forPage: page)
            result.loadedPageKeys = keys.knownKeys(through: max(page, keys.known.keys.max() ?? 0))
            result.loadedPostIDs = knownPostIDs(from: PlaceConverter.firstIndex(ofPage: page, pageSize: newSize), count: newSize)
            result.nextPageKey = nil
            let endOfPage = PlaceConverter.firstIndex(ofPage: PlaceConverter.saturatingAdd(page, 1), pageSize: newSize)
            result.endReached = listLengthBound.map { endOfPage >= $0 } ?? false

        case .infinite:
            let prefix = knownPostIDs(from: 0, count: Int.max)
            let pagesForPrefix = prefix.count / newSize + (prefix.count % newSize == 0 ? 0 : 1)
            let pagesForPlace = placeIndex.map { PlaceConverter.page(forIndex: $0, pageSize: newSize) } ?? 0
            let plan = keys.infiniteList(covering: max(pagesForPrefix, pagesForPlace), listLength: listLengthBound)
            result.loadedPostIDs = prefix
            result.loadedPageKeys = plan.loaded
            result.nextPageKey = plan.next
            result.endReached = plan.next == nil
            result.currentPage = nil
            result.currentPageKey = nil
        }
        return result
    }

    /// This state for a run with a different page size, in the same mode.
    /// Shorthand for ``switched(to:pageSize:firstPageKey:)`` with the current mode.
    public func resized(to pageSize: Int, firstPageKey: PageKey) -> ListState {
        switched(to: mode, pageSize: pageSize, firstPageKey: firstPageKey)
    }

    /// This mode's own state with the reader's place moved to `converted`'s: what a mode
    /// switch saves when the target mode has state of its own (DESIGN.md: "a mode switch
    /// moves the anchor only; it never drops the other mode's loaded posts").
    ///
    /// - Parameter converted: the other mode's state carried into this mode and page size
    ///   by ``switched(to:pageSize:firstPageKey:)``.
    /// - Returns: infinite: the loaded posts and pages kept, the anchor moved, pages added
    ///   when the anchor lies past them; paged: `converted` (a paged state is its page).
    func movingPlace(to converted: ListState) -> ListState {
        guard mode == converted.mode, pageSize == converted.pageSize, let anchor = converted.anchor else {
            return converted
        }
        guard mode == .infinite else { return converted }
        var result = self
        result.anchor = anchor
        // The post in view in the other mode was shown: `list` continues after it at least.
        if let shown = result.shownLength {
            result.shownLength = max(shown, min(PlaceConverter.saturatingAdd(anchor.index, 1), coveredLength))
        }
        if anchor.index >= coveredLength, converted.loadedPageKeys.count > loadedPageKeys.count {
            // The place is past the loaded pages: add the pages up to it (their posts are read
            // back on restore); what is loaded stays.
            result.loadedPageKeys += converted.loadedPageKeys[loadedPageKeys.count...]
            // The reader paged past the loaded posts: the pages up to the place count as read.
            result.shownLength = nil
            result.nextPageKey = converted.nextPageKey
            result.endReached = converted.endReached
            result.totalCount = converted.totalCount ?? totalCount
        }
        // A place this list cannot reach (it ended before it): the nearest is its last post.
        return result.withAnchorInside
    }

    /// Infinite: how far into the list, in the backend's positions, the saved list reached:
    /// the posts it holds, and a page size for each page listed without its ids (pages
    /// added by a mode switch, read back on restore), cut at ``shownLength``: the posts
    /// past this are the reader's next ones.
    var readLength: Int {
        let loaded: Int
        if let counts = loadedPageCounts {
            let (unlisted, overflow) = max(loadedPageKeys.count - counts.count, 0).multipliedReportingOverflow(by: pageSize)
            loaded = overflow ? Int.max : PlaceConverter.saturatingAdd(loadedPostIDs.count, unlisted)
        } else {
            loaded = coveredLength
        }
        // What was shown, when the save said (DESIGN.md: the place is what was shown).
        return min(shownLength ?? loaded, loaded)
    }

    // MARK: - Helpers

    /// Page keys this state knows, by 1-based page number (valid for its page size).
    private var knownPageKeys: [Int: PageKey] {
        var known: [Int: PageKey] = [:]
        for (offset, key) in loadedPageKeys.enumerated() {
            known[offset + 1] = key
        }
        if mode == .infinite, let nextPageKey {
            known[loadedPageKeys.count + 1] = nextPageKey
        }
        if mode == .paged, let currentPage, let currentPageKey {
            known[currentPage] = currentPageKey
        }
        return known
    }

    /// The known ids of the posts at indexes `start ..< start + count` of the whole list;
    /// empty when the ids this state holds do not start at or before `start`.
    private func knownPostIDs(from start: Int, count: Int) -> [PostID] {
        let offset = start - firstLoadedIndex
        guard offset >= 0, offset < loadedPostIDs.count else { return [] }
        let end = offset + min(count, loadedPostIDs.count - offset)
        return Array(loadedPostIDs[offset..<end])
    }

    /// An upper bound on the length of the list, when the state knows one: the total
    /// count, or where the end was reached. Used only to say the end is reached, so it may
    /// be too large but never too small.
    private var listLengthBound: Int? {
        var bounds: [Int] = []
        if let totalCount { bounds.append(totalCount) }
        if endReached {
            switch mode {
            case .infinite:
                let (pages, overflow) = loadedPageKeys.count.multipliedReportingOverflow(by: pageSize)
                bounds.append(max(loadedPostIDs.count, overflow ? Int.max : pages))
            case .paged:
                bounds.append(PlaceConverter.saturatingAdd(firstLoadedIndex, pageSize))
            }
        }
        return bounds.min()
    }
}
