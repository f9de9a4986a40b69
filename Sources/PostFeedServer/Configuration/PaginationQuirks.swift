/// Ways real backends get pagination wrong, for PostFeed's own API (the `postFeed`
/// flavor): tests and demos of how the client copes. All off by default.
///
/// ```swift
/// var configuration = FixtureServerConfiguration()
/// configuration.quirks = PaginationQuirks(omitsLinkHeader: true)   // only hasMore and totals say more follows
/// configuration.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: 15_000)   // one 10 MB page
/// ```
public struct PaginationQuirks: Sendable, Hashable {
    /// No `Link` header on list pages: the end is known from `hasMore` and the total only.
    public var omitsLinkHeader: Bool
    /// The `Link` header's `rel="next"` points to the page itself.
    public var selfLinkingNext: Bool
    /// Every page answers with the posts of page 1 (its numbers and `hasMore` as asked).
    public var repeatsFirstPage: Bool
    /// Every page answers with the same posts whatever page, cursor and page size were
    /// asked, as a static file behind the API's path does: the whole list, or
    /// ``servedPostCount`` posts. The page's numbers, `hasMore` and links are as asked.
    /// Wins over ``repeatsFirstPage``.
    public var ignoresPageSize: Bool
    /// With ``ignoresPageSize``, how many posts every page holds (at least 0); past the
    /// fixtures' posts they repeat with new ids, so a page can be as long as a test needs
    /// (one larger than the client's page-body bound). `nil`: the whole list.
    public var servedPostCount: Int?

    /// Quirks as given; none by default.
    public init(
        omitsLinkHeader: Bool = false, selfLinkingNext: Bool = false, repeatsFirstPage: Bool = false,
        ignoresPageSize: Bool = false, servedPostCount: Int? = nil
    ) {
        self.omitsLinkHeader = omitsLinkHeader
        self.selfLinkingNext = selfLinkingNext
        self.repeatsFirstPage = repeatsFirstPage
        self.ignoresPageSize = ignoresPageSize
        self.servedPostCount = servedPostCount
    }

    /// No quirks: PostFeed's API as DESIGN.md describes it.
    public static let none = PaginationQuirks()
}
