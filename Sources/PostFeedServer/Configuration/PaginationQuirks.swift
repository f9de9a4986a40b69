/// Ways real backends get pagination wrong, for PostFeed's own API (the `postFeed`
/// flavor): tests and demos of how the client copes. All off by default.
///
/// ```swift
/// var configuration = FixtureServerConfiguration()
/// configuration.quirks = PaginationQuirks(omitsLinkHeader: true)   // only hasMore and totals say more follows
/// ```
public struct PaginationQuirks: Sendable, Hashable {
    /// No `Link` header on list pages: the end is known from `hasMore` and the total only.
    public var omitsLinkHeader: Bool
    /// The `Link` header's `rel="next"` points to the page itself.
    public var selfLinkingNext: Bool
    /// Every page answers with the posts of page 1 (its numbers and `hasMore` as asked).
    public var repeatsFirstPage: Bool

    /// Quirks as given; none by default.
    public init(omitsLinkHeader: Bool = false, selfLinkingNext: Bool = false, repeatsFirstPage: Bool = false) {
        self.omitsLinkHeader = omitsLinkHeader
        self.selfLinkingNext = selfLinkingNext
        self.repeatsFirstPage = repeatsFirstPage
    }

    /// No quirks: PostFeed's API as DESIGN.md describes it.
    public static let none = PaginationQuirks()
}
