import PostFeedHTTP

extension InfiniteFeed {
    func makeResident(_ position: Int) async throws(RepositoryError) {
        guard segments[position].posts == nil else { return }
        let key = segments[position].key
        let listGeneration = generation
        let page: Page
        if configuration.servesExpiredPages {
            // The cached copy whatever its age, the network only when there is none; an
            // expired copy is queued for revalidation below.
            page = try await repository.page(key, cachePolicy: .cacheElseLoad, priority: .high)
        } else {
            do {
                // Pages coming back into the window (or restored) are read as they were cached,
                // expired or not: no network, and not a failure worth reporting.
                page = try await repository.page(key, cachePolicy: .cacheOnly, priority: .high)
            } catch where error.code == .notCached {
                page = try await repository.page(key, cachePolicy: .useCache, priority: .high)
                if let reason = page.staleReason, generation == listGeneration { staleReason = reason }
            }
        }
        // While the page loaded, the list may have been replaced (refresh, restore), or
        // another reader made the same page resident.
        guard generation == listGeneration, segments[position].posts == nil else { return }
        noteExpired(page)
        // Keep the ids recorded when the page was first loaded, in their order; posts deleted
        // upstream since then leave the list (the reader's anchor moves to a neighbour).
        let byID = Dictionary(page.posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = segments[position].postIDs
        let surviving = ids.compactMap { byID[$0] }
        if surviving.count < ids.count {
            knownIDs.subtract(ids.filter { byID[$0] == nil })
            segments[position].postIDs = surviving.map(\.id)
        }
        segments[position].listedPostIDs.removeAll { byID[$0] == nil }
        segments[position].posts = surviving
    }

    /// Drops the posts of the resident pages farthest from the reader's focus.
    func evictIfNeeded() {
        guard let limit = configuration.maximumResidentPages else { return }
        var resident = segments.indices.filter { segments[$0].isResident }
        guard resident.count > limit else { return }
        let focus = locate(focusIndex)?.segment ?? segments.count - 1
        resident.sort { abs($0 - focus) > abs($1 - focus) }
        for position in resident.prefix(resident.count - limit) {
            segments[position].posts = nil
        }
    }
}
