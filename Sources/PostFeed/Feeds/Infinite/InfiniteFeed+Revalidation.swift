import PostFeedHTTP

extension InfiniteFeed {
    /// How pages are read: any cached copy at once with ``Configuration/servesExpiredPages``,
    /// else revalidating an expired one first.
    var readPolicy: CachePolicy { configuration.servesExpiredPages ? .cacheElseLoad : .useCache }

    /// Pages served from the cache past their expiry and not revalidated yet.
    public var expiredPageCount: Int { expiredPages.count }

    /// Queues `page` for revalidation when it was served expired. One served expired
    /// because it cannot be checked (the client is offline) is not queued: ``staleReason``
    /// says why instead (also for a page read back into the window or restored).
    func noteExpired(_ page: Page) {
        guard configuration.servesExpiredPages, page.isExpired else { return }
        if let reason = page.staleReason {
            staleReason = reason
            return
        }
        guard !expiredPages.contains(page.key) else { return }
        expiredPages.append(page.key)
    }

    /// Asks the server about one page served from the cache past its expiry
    /// (``Configuration/servesExpiredPages``), the one nearest the reader's focus first, with
    /// a conditional request. Returns `nil` when none is waiting (or the caller was
    /// cancelled: the page stays queued).
    ///
    /// - A `304` refreshes the cached copy's expiry: ``PageRevalidation/Outcome/unchanged``.
    /// - A changed page replaces the page's posts in the feed (resident or not; duplicates
    ///   of other pages and hidden posts left out as when it was loaded, posts gone upstream
    ///   leave the list): ``PageRevalidation/Outcome/replaced``. Indices after it move when
    ///   its post count changed; find the reader's post again with ``index(ofPostID:)``.
    ///   A newer copy of the last page loaded also sets where the list goes on: one that
    ///   says there are no more ends it (``hasMore`` turns `false`), a new next key is the
    ///   next ``loadMore(priority:)``'s; a new total or next key alone is ``PageRevalidation/Outcome/replaced`` too.
    /// - When the server cannot be asked, the cached posts stay, ``staleReason`` says why
    ///   when the page is resident (until that page revalidates), and so does
    ///   ``PageRevalidation/Outcome/failed(_:)``.
    ///
    /// A page whose list was replaced meanwhile (``refresh()``, ``restore(_:hiddenPostIDs:)``)
    /// is `.unchanged`: it belongs to no list now. Call it in a loop in a background task;
    /// cancel the task to stop.
    public func revalidateNextExpiredPage(priority: HTTPPriority = .normal) async -> PageRevalidation? {
        guard !Task.isCancelled, let key = takeExpiredPage() else { return nil }
        let listGeneration = generation
        let page: Page
        do {
            page = try await repository.page(key, cachePolicy: .useCache, priority: priority)
        } catch where error.code == .cancelled {
            if generation == listGeneration, !expiredPages.contains(key) { expiredPages.insert(key, at: 0) }
            return nil
        } catch {
            guard generation == listGeneration else { return PageRevalidation(key: key, number: nil, outcome: .unchanged) }
            noteFailedRevalidation(of: key, reason: error.message)
            return PageRevalidation(key: key, number: pageNumber(of: key, page: nil), outcome: .failed(error.message))
        }
        guard generation == listGeneration else { return PageRevalidation(key: key, number: page.number, outcome: .unchanged) }
        let number = pageNumber(of: key, page: page)
        if let reason = page.staleReason {
            noteFailedRevalidation(of: key, reason: reason)
            return PageRevalidation(key: key, number: number, outcome: .failed(reason))
        }
        if staleRevalidation == key {
            // The page the reader was told is out of date is up to date now.
            staleReason = nil
        }
        return PageRevalidation(key: key, number: number, outcome: replace(key, with: page) ? .replaced : .unchanged)
    }

    /// Says why on ``staleReason`` when the page whose revalidation failed is resident (the
    /// reader sees it), as ``PagedFeed`` does for the page on screen; a page far off screen
    /// says nothing. A later success for that page clears it.
    private func noteFailedRevalidation(of key: PageKey, reason: String) {
        guard segments.contains(where: { $0.key == key && $0.isResident }) else { return }
        staleReason = reason
        staleRevalidation = key
    }

    /// Removes and returns the queued page nearest the focus.
    private func takeExpiredPage() -> PageKey? {
        guard !expiredPages.isEmpty else { return nil }
        let focus = locate(focusIndex)?.segment ?? 0
        let positions = Dictionary(segments.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        let nearest = expiredPages.indices.min { first, second in
            abs((positions[expiredPages[first]] ?? Int.max / 2) - focus) < abs((positions[expiredPages[second]] ?? Int.max / 2) - focus)
        } ?? 0
        return expiredPages.remove(at: nearest)
    }

    /// The page's number: its own, else its place among the loaded pages.
    private func pageNumber(of key: PageKey, page: Page?) -> Int? {
        page?.number ?? segments.firstIndex { $0.key == key }.map { $0 + 1 }
    }

    /// Puts `page`'s posts in place of those loaded from `key`; returns whether anything the
    /// feed holds changed (its posts, the total, or the next page's key when it is the last
    /// page loaded).
    ///
    /// A post the page now shares with a neighbouring page moved across the page boundary
    /// upstream (posts added or removed before it): it moves to this page and leaves the
    /// neighbour, so revalidating every page leaves each post once, where the server has it.
    /// A post loaded on a page farther away stays there and is left out of this one.
    private func replace(_ key: PageKey, with page: Page) -> Bool {
        guard let position = segments.firstIndex(where: { $0.key == key }) else { return false }
        let old = segments[position]
        let endMoved = position == segments.count - 1 && followNextKey(of: page, key: key)
        let totalChanged = page.totalCount.map { $0 != totalCount } ?? false
        if let total = page.totalCount { totalCount = total }
        var others = knownIDs
        others.subtract(old.listedPostIDs)
        let neighbours = [position - 1, position + 1].filter { segments.indices.contains($0) }
        let neighbourIDs = Set(neighbours.flatMap { segments[$0].listedPostIDs })
        let listed = page.posts.filter { !others.contains($0.id) || neighbourIDs.contains($0.id) }
        var shown = listed
        if configuration.unseenOnly { shown.removeAll { hiddenPostIDs.contains($0.id) } }
        let changed = old.posts.map { $0 != shown } ?? (old.postIDs != shown.map(\.id))
        guard changed else { return endMoved || totalChanged }
        let moving = neighbourIDs.intersection(listed.map(\.id))
        for neighbour in neighbours where !moving.isDisjoint(with: segments[neighbour].listedPostIDs) {
            let left = segments[neighbour]
            var segment = Segment(
                key: left.key, postIDs: left.postIDs.filter { !moving.contains($0) },
                listedPostIDs: left.listedPostIDs.filter { !moving.contains($0) })
            segment.posts = left.posts?.filter { !moving.contains($0.id) }
            segment.upstreamPostIDs = left.upstreamPostIDs ?? left.listedPostIDs
            segments[neighbour] = segment
        }
        knownIDs.subtract(old.listedPostIDs)
        knownIDs.formUnion(listed.map(\.id))
        var segment = Segment(key: key, postIDs: shown.map(\.id), listedPostIDs: listed.map(\.id))
        // A page out of the window stays out: its newer copy is in the page cache.
        segment.posts = old.isResident ? shown : nil
        if listed.count < page.posts.count { segment.upstreamPostIDs = page.posts.map(\.id) }
        segments[position] = segment
        let leaving = old.listedPostIDs.filter { !knownIDs.contains($0) }
        handBack(leaving, from: old, to: neighbours)
        return true
    }

    /// Gives the posts a page let go of back to a neighbour whose copy lists them upstream
    /// (they were left out of it as duplicates when it loaded), in that page's order: new
    /// posts at the top push page 1's last posts onto page 2, which was loaded fresh and
    /// is not revalidated again, so they must not fall between the pages.
    private func handBack(_ leaving: [PostID], from old: Segment, to neighbours: [Int]) {
        var left = Set(leaving)
        for neighbour in neighbours where !left.isEmpty {
            let segment = segments[neighbour]
            guard let upstream = segment.upstreamPostIDs else { continue }
            let returning = left.intersection(upstream)
            guard !returning.isEmpty else { continue }
            left.subtract(returning)
            let keep = Set(segment.listedPostIDs).union(returning)
            let listed = upstream.filter { keep.contains($0) }
            var shown = listed
            if configuration.unseenOnly { shown.removeAll { hiddenPostIDs.contains($0) } }
            var updated = Segment(key: segment.key, postIDs: shown, listedPostIDs: listed)
            updated.upstreamPostIDs = listed == upstream ? nil : upstream
            if let posts = segment.posts {
                let byID = Dictionary((posts + (old.posts ?? [])).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let found = shown.compactMap { byID[$0] }
                // A post the feed no longer holds comes back with the page from the page cache.
                updated.posts = found.count == shown.count ? found : nil
            }
            segments[neighbour] = updated
            knownIDs.formUnion(returning)
        }
    }

    /// Takes the next page's key from the newer copy of the last page loaded: a copy that
    /// says there are no more ends the list, one with a new next key (a cursor, a link, more
    /// posts upstream) is where the next ``loadMore()`` goes. Not while a load is under way
    /// (it sets the key from the page it reads) nor after a stall; a next key already walked
    /// ends the list as it does when loading. Returns whether the key changed.
    private func followNextKey(of page: Page, key: PageKey) -> Bool {
        guard loadFlight == nil, stalledWalk == nil else { return false }
        var next = page.nextKey
        if let candidate = next, candidate == key || segments.contains(where: { $0.key == candidate }) { next = nil }
        guard next != nextKey else { return false }
        nextKey = next
        return true
    }
}
