/// How pages are addressed. In a config file: `"pagination": {"style": "page" | "offset" |
/// "cursor" | "link", …parameter names}`.
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

    /// The query parameter carrying the page size, if any.
    public var limitParameter: String? {
        switch self {
        case .pageNumber(_, let limit), .offset(_, let limit), .cursor(_, let limit, _): limit
        case .linkHeader(let limit): limit
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
