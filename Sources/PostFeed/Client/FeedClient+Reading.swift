import Foundation
import Logging
import PostFeedHTTP

/// What ``FeedClient/readInfinite(pages:after:onLoading:onPage:)`` did: which posts it loaded
/// and handed over, where it left the reader, and what stopped it.
public struct InfiniteReading: Sendable {
    /// Feed index of the first post this reading hands over: where the feed stood, or
    /// before that when the resumed place had not reached the feed's last posts
    /// (``ResumeReport/firstUnreadIndex``: the page size changed).
    public var start: Int
    /// The feed's count when the reading ended.
    public var end: Int
    /// Feed index of the reader's place: the first post of the last page loaded, or the
    /// resumed place when no page was.
    public var place: Int
    /// Feed index after the last post handed to `onPage`.
    public var delivered: Int
    /// The feed's count when the place was last saved; `nil` before the first save.
    public var savedEnd: Int?
    /// More pages follow.
    public var hasMore: Bool
    /// Total number of posts, when the backend said.
    public var totalCount: Int?
    /// Some page came from the cache out of date.
    public var isStale: Bool { staleReason != nil }
    /// Why: offline, the network failed, the server failed (HTTP 503); `nil` when fresh.
    public var staleReason: String?
    /// What ended the reading early: a page that failed after others loaded, `onPage`
    /// failing (output that could not be written), a save that failed, or cancellation.
    public var failure: (any Error)?
    /// One line each from the saves (another process's place replaced).
    public var notices: [String]
}

/// Where ``FeedClient/readPages(_:count:isolation:onPage:)`` starts.
public enum PageNavigation: Sendable, Equatable {
    /// The saved page (page 1 on a first run; the last page when the saved one is past the end).
    case saved
    /// Page `n`; past the end it is an error.
    case number(Int)
    /// The page after / before the saved one, the first, the last.
    case next, previous, first, last
}

/// One page shown by ``FeedClient/readPages(_:count:isolation:onPage:)``.
public struct PageReading: Sendable {
    /// The page's 1-based number.
    public var page: Int
    /// Its posts, in the backend's order.
    public var posts: [Post]
    /// Pages in all, when known.
    public var totalPages: Int?
    /// Posts in all, when known.
    public var totalCount: Int?
    /// No page follows.
    public var isLast: Bool
    /// It came from the cache out of date.
    public var isStale: Bool { staleReason != nil }
    /// Why: offline, the network failed, the server failed (HTTP 503); `nil` when fresh.
    public var staleReason: String?
    /// 1-based position in the whole list of `posts[0]`.
    public var firstPosition: Int
    /// One line each: a state file set aside, the saved page past the end, a replaced place.
    public var notices: [String]
}

extension FeedClient {
    // MARK: Infinite

    /// Loads `pages` more pages of the infinite feed after where it stands (`resumed` is
    /// what ``resumeInfinite()`` or ``restartInfinite()`` reported), handing each page's posts to
    /// `onPage` as their feed indices and saving the reader's place after it: the top of
    /// the page just handed over. What `postfeed list` does.
    ///
    /// The place never runs ahead of what was handed over, whatever ends the run: a page
    /// that fails, `onPage` throwing, cancellation (the task's, e.g. on SIGINT). Those are
    /// reported in ``InfiniteReading/failure``, not thrown. With `onPage` `nil`, nothing is
    /// handed over or saved per page: print what was loaded, then call
    /// ``savePlace(after:)``.
    ///
    /// ```swift
    /// let resumed = try await client.resumeInfinite()
    /// let reading = await client.readInfinite(pages: 3, after: resumed, onPage: { range in
    ///     for post in try await client.infinite.posts(in: range) { print(post.title) }
    /// })
    /// try await client.savePlace(after: reading)
    /// ```
    /// - Parameters:
    ///   - pages: how many pages to load, at most; fewer when the feed ends first.
    ///   - resumed: what ``resumeInfinite()`` or ``restartInfinite()`` reported: where the
    ///     reader stands, and which loaded posts the last run did not show yet.
    ///   - onLoading: called before each page loads, with its number in this run (1…`pages`).
    ///   - onPage: called with each page's posts as a range of feed indices, before the place
    ///     is saved at the top of that page; `nil` hands nothing over and saves nothing.
    public func readInfinite(
        pages: Int, after resumed: ResumeReport, onLoading: (@Sendable (Int) -> Void)? = nil, onPage: (@Sendable (Range<Int>) async throws -> Void)? = nil
    ) async -> InfiniteReading {
        let loaded = await infinite.count
        // Posts already in the feed the last run did not show (its page size was another)
        // come first, with the first page loaded: nothing is skipped.
        let start = min(max(resumed.firstUnreadIndex ?? loaded, 0), loaded)
        var reading = InfiniteReading(
            start: start, end: loaded, place: resumed.anchorIndex, delivered: start, savedEnd: nil, hasMore: true,
            totalCount: nil, staleReason: nil, failure: nil, notices: [])
        // Where the next page handed over starts (also without `onPage`, which hands over
        // nothing until the caller prints everything).
        var next = start
        var savedWithMore = false
        let pageSize = max(configuration.pageSize, 1)
        for number in 1...max(pages, 1) {
            if Task.isCancelled { break }
            let count = await infinite.count
            let page: Range<Int>
            let place: Int
            if count - next >= pageSize {
                // A page's worth of posts loaded but never shown (a run's page loaded ahead,
                // the catalog walk of a browse): shown first, nothing loaded.
                page = next..<(next + pageSize)
                place = next
            } else {
                onLoading?(number)
                let added: Int
                do {
                    added = try await infinite.loadMore()
                } catch {
                    reading.failure = error
                    break
                }
                // Carried posts alone (the list ended) are a page of their own.
                guard added > 0 || next < count else { break }
                page = next..<(await infinite.count)
                place = added > 0 ? count : next
            }
            next = page.upperBound
            guard let onPage else {
                reading.place = place
                continue
            }
            do {
                try await onPage(page)
                // Only a page handed over can be the place.
                reading.place = place
                reading.delivered = page.upperBound
                await markShown(feedIndices: page)
                // The write is atomic, so a kill never tears it.
                reading.notices += try await saveInfinite(anchorIndex: place, shownPostIDs: await shownPostIDs(in: page))
                reading.savedEnd = page.upperBound
                let (more, total) = (await infinite.hasMore, await infinite.count)
                savedWithMore = more || page.upperBound < total
            } catch {
                reading.failure = error
                break
            }
        }
        let count = await infinite.count
        reading.end = min(next, count)
        let more = await infinite.hasMore
        reading.hasMore = more || reading.end < count
        // A walk the feed ended without a new post (the backend repeats itself or loops):
        // the last save still says there is more. Save the end too, so the next run does
        // not walk into the same wall and warn again.
        if onPage != nil, reading.failure == nil, savedWithMore, !reading.hasMore, reading.savedEnd == reading.end {
            do {
                reading.notices += try await saveInfinite(anchorIndex: reading.place)
            } catch {
                reading.failure = error
            }
        }
        reading.totalCount = await infinite.totalCount
        reading.staleReason = await infinite.staleReason
        return reading
    }

    /// Saves the place `reading` left the reader at, unless it was saved after its last
    /// page already. Call it after the posts were handed to the reader: the posts from
    /// ``InfiniteReading/start`` to ``InfiniteReading/end`` count as seen.
    /// - Returns: one line each when another process's place was replaced.
    @discardableResult
    public func savePlace(after reading: InfiniteReading) async throws(ListStateError) -> [String] {
        guard reading.savedEnd != reading.end else { return [] }
        await markShown(feedIndices: reading.start..<reading.end)
        return try await saveInfinite(
            anchorIndex: reading.place, shownPostIDs: await shownPostIDs(in: reading.start..<reading.end))
    }

    // MARK: Numbered pages

    /// Opens numbered mode where `navigation` says and shows `count` pages from there,
    /// handing each to `onPage` and then saving it as the reader's place (atomically and
    /// synced, as every save): the page and its images come first, the save is off the
    /// path to the first screen (issue 16). The place is saved also when `onPage` throws
    /// (the page was reached), and the save's error, if any, is thrown after it.
    /// What `postfeed page` does.
    ///
    /// - Returns: the saves' notices, one line each when another process's place was
    ///   replaced (the resume's notices come with the first page instead).
    /// - Throws: ``RepositoryError`` `.pageOutOfRange` for a page past the end, or for
    ///   `.next` on the last page and `.previous` on the first (nothing is saved then).
    ///
    /// Runs in the caller's isolation (`isolation`), so `onPage` need not be `@Sendable`:
    /// it may touch the caller's actor state, from an actor or from top-level code.
    @discardableResult
    public func readPages(
        _ navigation: PageNavigation, count: Int = 1, isolation: isolated (any Actor)? = #isolation,
        onPage: (PageReading) async throws -> Void
    ) async throws -> [String] {
        let feed = paged
        let requested: Int? = switch navigation {
        case .number(let number): number
        case .first: 1
        default: nil
        }
        let resumed = try await resumePaged(page: requested)
        switch navigation {
        case .next:
            guard await feed.hasNext else {
                let page = await feed.currentPage
                throw RepositoryError(
                    .pageOutOfRange, url: nil, page: .number(page),
                    message: "page \(page) is the last page; there is no next one", recovery: .startFromFirstPage)
            }
            try await feed.next()
        case .previous:
            guard await feed.hasPrevious else {
                let page = await feed.currentPage
                throw RepositoryError(
                    .pageOutOfRange, url: nil, page: .number(page), message: "page \(page) is the first page; there is no previous one")
            }
            try await feed.previous()
        case .last:
            try await feed.last()
        case .saved, .number, .first:
            break
        }
        // A server total found too high on the way (`--last`): said with the first page.
        let found = navigation == .last ? [await feed.totalMismatch].compactMap { $0 } : []
        var anchor = navigation == .saved ? resumed.anchorIndex : 0
        var saveNotices: [String] = []
        for round in 0..<max(count, 1) {
            if round > 0 {
                guard await feed.hasNext else { break }
                try await feed.next()
                anchor = 0
            }
            let page = await feed.currentPage
            let reading = PageReading(
                page: page, posts: await feed.posts, totalPages: await feed.totalPages, totalCount: await feed.totalCount,
                isLast: !(await feed.hasNext), staleReason: await feed.staleReason,
                firstPosition: await firstPosition(ofPage: page),
                notices: round == 0 ? resumed.notices + found : [])
            let shown: Result<Void, any Error>
            do { shown = .success(try await onPage(reading)) } catch { shown = .failure(error) }
            do {
                saveNotices += try await savePaged(anchorIndexInPage: anchor)
            } catch {
                // The hand-over's failure is the caller's first problem: it is the one
                // thrown, the save's goes to the logger rather than being lost.
                guard case .failure(let handOverError) = shown else { throw error }
                logger.warning("page \(page) could not be handed over, and its place was not saved either: \(error.message)")
                throw handOverError
            }
            try shown.get()
        }
        return saveNotices
    }
}

extension FeedClient {
    /// The 1-based position in the whole list of the first post of numbered page `page`:
    /// page × page size, or, for pages reached by walking (a feed, whose pages are as
    /// long as its server makes them; cursors and links), what the walk counted.
    public func firstPosition(ofPage page: Int) async -> Int {
        if let key = await paged.currentPageKey, repository.pageKey(forPageNumber: page) == nil,
           let start = (repository as? HTTPPostRepository)?.startIndex(of: key)
        {
            return PlaceConverter.saturatingAdd(start, 1)
        }
        return PlaceConverter.position(page: page, indexInPage: 0, pageSize: configuration.pageSize)
    }
}
