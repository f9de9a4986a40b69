import PostFeedHTTP

extension PagedFeed {
    /// `policy` as navigations use it: ``CachePolicy/useCache`` becomes
    /// ``CachePolicy/cacheElseLoad`` with ``Configuration/servesExpiredPages``.
    func readPolicy(_ policy: CachePolicy) -> CachePolicy {
        configuration.servesExpiredPages && policy == .useCache ? .cacheElseLoad : policy
    }

    /// Pages shown from the cache past their expiry and not revalidated yet.
    public var expiredPageCount: Int { expiredPages.count }

    /// Queues page `number` for revalidation when it was shown expired (and not because
    /// the network failed or the client is offline: the page already says why it is stale).
    func noteExpired(_ page: Page, number: Int) {
        guard configuration.servesExpiredPages, page.isExpired, !page.isStale,
              !expiredPages.contains(where: { $0.number == number && $0.key == page.key })
        else { return }
        expiredPages.append((number, page.key))
    }

    /// Asks the server about one page shown from the cache past its expiry
    /// (``Configuration/servesExpiredPages``), the page on screen first, with a conditional
    /// request. Returns `nil` when none is waiting (or the caller was cancelled: the page
    /// stays queued).
    ///
    /// - A `304` refreshes the cached copy's expiry: ``PageRevalidation/Outcome/unchanged``;
    ///   so is a newer copy of a page no longer on screen (it is in the page cache for when
    ///   the reader comes back).
    /// - A newer copy of the page on screen replaces ``posts``:
    ///   ``PageRevalidation/Outcome/replaced``.
    /// - When the server cannot be asked, the cached posts stay, ``staleReason`` says why
    ///   (for the page on screen), and so does ``PageRevalidation/Outcome/failed(_:)``.
    ///
    /// One that awaited across a reload is ``PageRevalidation/Outcome/unchanged`` and, when
    /// cancelled, not queued again: the reload read the page from the network.
    public func revalidateNextExpiredPage(priority: HTTPPriority = .normal) async -> PageRevalidation? {
        guard !Task.isCancelled, !expiredPages.isEmpty else { return nil }
        let (number, key) = expiredPages.remove(at: expiredPages.firstIndex { $0.number == currentPage } ?? 0)
        let reload = reloads
        let page: Page
        do {
            page = try await repository.page(key, cachePolicy: .useCache, priority: priority)
        } catch where error.code == .cancelled {
            if reload == reloads { expiredPages.insert((number, key), at: 0) }
            return nil
        } catch {
            guard reload == reloads else { return PageRevalidation(key: key, number: number, outcome: .unchanged) }
            if number == currentPage { staleReason = error.message }
            return PageRevalidation(key: key, number: number, outcome: .failed(error.message))
        }
        // A reload meanwhile showed a copy at least as new, and emptied the queue.
        guard reload == reloads else { return PageRevalidation(key: key, number: number, outcome: .unchanged) }
        if let reason = page.staleReason {
            if number == currentPage { staleReason = reason }
            return PageRevalidation(key: key, number: number, outcome: .failed(reason))
        }
        guard number == currentPage, keys[number] == key, page.posts != posts else {
            return PageRevalidation(key: key, number: number, outcome: .unchanged)
        }
        posts = page.posts
        staleReason = nil
        learn(from: page, number: number)
        return PageRevalidation(key: key, number: number, outcome: .replaced)
    }
}
