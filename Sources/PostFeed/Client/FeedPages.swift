import Foundation
import Logging

extension FeedClient {
    /// The backend's pages in order, from page `number` (1: the first) to the last, each
    /// fetched when the loop asks for it (through the page cache), whatever the pagination
    /// (numbers, offsets or cursors: the next page's key comes from the page before). No
    /// reader's place is read or moved. Usable from any isolation: its iterator's
    /// `next(isolation:)` runs where the loop runs.
    ///
    /// ```swift
    /// for try await page in client.pages(deadline: .now + .seconds(30)) {
    ///     for post in page.posts { print(post.title) }
    /// }
    /// ```
    /// The sequence's error is ``RepositoryError`` (`deadlineExceeded` once `deadline`, one
    /// bound for the whole walk, has passed).
    public func pages(
        from number: Int = 1, cachePolicy: PageCachePolicy = .useCache, deadline: ContinuousClock.Instant? = nil,
        logger: Logger? = nil
    ) -> FeedPages {
        FeedPages(client: self, first: number, cachePolicy: cachePolicy, deadline: deadline, logger: logger)
    }
}

/// The pages ``FeedClient/pages(from:cachePolicy:deadline:logger:)`` walks.
public struct FeedPages: AsyncSequence, Sendable {
    public typealias Element = Page
    public typealias Failure = RepositoryError

    let client: FeedClient
    let first: Int
    let cachePolicy: PageCachePolicy
    let deadline: ContinuousClock.Instant?
    let logger: Logger?

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// Fetches one page per call; ends after the page that says it is the last.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: FeedPages
        /// The key of the page to fetch next; `nil` once the walk ended.
        var next: PageKey?
        var started = false
        /// Keys already walked: a backend that sends the walk back ends it.
        var seen: Set<PageKey> = []

        init(pages: FeedPages) {
            self.pages = pages
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RepositoryError) -> Page? {
            let client = pages.client
            if !started {
                started = true
                if pages.first == 1 {
                    next = client.repository.firstPageKey
                } else if pages.first < 1 {
                    throw RepositoryError(.pageOutOfRange, url: nil, page: nil, message: "page \(pages.first) does not exist; pages start at 1")
                } else {
                    // Past the first: by number (`page(_:)` throws for cursor backends).
                    let page = try await client.page(pages.first, cachePolicy: pages.cachePolicy, deadline: pages.deadline, logger: pages.logger)
                    seen.insert(page.key)
                    next = page.nextKey
                    return page
                }
            }
            guard let key = next, !seen.contains(key) else { return nil }
            seen.insert(key)
            let repository = client.repository
            let cachePolicy = pages.cachePolicy
            let logger = client.callLogger(pages.logger, ["page-key": "\(key)"])
            let page = try await client.calling("page \(key)", deadline: pages.deadline, logger: logger, timedOut: { _ in
                RepositoryError(.deadlineExceeded, url: nil, page: key, message: "the walk's deadline passed before page \(key)")
            }) { () throws(RepositoryError) -> Page in
                try await repository.page(key, cachePolicy: cachePolicy, priority: .normal)
            }
            next = page.nextKey
            return page
        }

        public mutating func next() async throws(RepositoryError) -> Page? {
            try await next(isolation: #isolation)
        }
    }
}
