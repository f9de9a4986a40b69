/// What revalidating one page a feed served expired found (see
/// ``InfiniteFeed/revalidateNextExpiredPage(priority:)`` and
/// ``PagedFeed/revalidateNextExpiredPage(priority:)``).
public struct PageRevalidation: Sendable, Equatable {
    /// The outcome for the reader.
    public enum Outcome: Sendable, Equatable {
        /// Nothing the feed holds changed: the server answered `304` (the cached copy's
        /// expiry was refreshed), or the newer copy is in the page cache for when the page
        /// is read again (a page not on screen).
        case unchanged
        /// A newer copy replaced the page's posts in the feed: draw them again.
        case replaced
        /// The server could not be asked (offline, the network or the server failed): the
        /// cached posts stay, and this says why.
        case failed(String)
    }

    /// The page's key.
    public var key: PageKey
    /// Its 1-based number in the list, when known.
    public var number: Int?
    /// What revalidating it found.
    public var outcome: Outcome

    /// Makes a revalidation result.
    public init(key: PageKey, number: Int?, outcome: Outcome) {
        self.key = key
        self.number = number
        self.outcome = outcome
    }

    /// `page 2`, or the key's words when the number is unknown (`cursor abc`).
    public var pageName: String { number.map { "page \($0)" } ?? key.description }
}
