/// How pages are addressed. In a config file: `"pagination": {"style": "page" | "offset" |
/// "cursor" | "link" | "nextURL", …parameter names}`.
public enum PaginationStyle: Sendable, Hashable {
    /// `?{page}=N&{limit}=M`, N from 1 (PostFeed's `page`/`limit`, json-server's `_page`/`_limit`).
    case pageNumber(page: String, limit: String)
    /// `?{offset}=S&{limit}=M` (DummyJSON's `skip`/`limit`).
    case offset(offset: String, limit: String)
    /// `?{cursor}=C&{limit}=M`, C read from the body field `nextCursorField` (a dotted
    /// path); omitted for the first page. A null or missing next cursor ends the list.
    case cursor(cursor: String, limit: String, nextCursorField: String)
    /// The first page at ``BackendDescription/postsPath`` with `?{limit}=M` (no limit
    /// parameter when `nil`), then the `Link` header's `rel="next"` URL as is (GitHub
    /// style). No next link ends the list.
    case linkHeader(limit: String?)
    /// The first page at ``BackendDescription/postsPath`` with `?{limit}=M` (none when
    /// `nil`), then the URL in the body field `field` (a dotted path; relative to the page's
    /// URL), as JSON Feed's `next_url` or Discourse's `more_topics_url`. A missing, null
    /// or empty next URL ends the list.
    case nextURL(field: String, limit: String?)

    /// The query parameter carrying the page size, if any.
    public var limitParameter: String? {
        switch self {
        case .pageNumber(_, let limit), .offset(_, let limit), .cursor(_, let limit, _): limit
        case .linkHeader(let limit), .nextURL(_, let limit): limit
        }
    }
}

/// Where the list of items sits in a page body.
public enum ItemsLocation: Sendable, Hashable {
    /// The body is a JSON array.
    case root
    /// The body is an object and the items are under this key (`posts`, `data`), or under
    /// a dotted path (`result.items`).
    case key(String)
}
