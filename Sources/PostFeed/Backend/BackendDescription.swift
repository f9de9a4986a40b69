import Foundation

/// Everything PostFeed needs to know to page through one backend: where it is, how it
/// paginates, where the items and the total sit, how the end of the list shows, and which
/// fields hold a post's parts.
///
/// Chosen by a preset (`--api postfeed|json-server|json-server-v1|dummyjson`) or loaded
/// from a JSON config file (`--backend FILE`).
public struct BackendDescription: Sendable, Hashable, Codable {
    /// Preset name, or a free name for a custom description.
    public var name: String
    /// The server root; ``postsPath`` is appended.
    public var baseURL: URL
    /// Path of the post list, e.g. `/api/posts`.
    public var postsPath: String
    /// Path of one post, with `{id}`, e.g. `/api/posts/{id}`; `nil` when the backend has none.
    public var postPath: String?
    public var pagination: PaginationStyle
    /// Where the items sit in a page body.
    public var items: ItemsLocation
    /// Where the total number of posts comes from.
    public var total: TotalSource
    /// The signals that mark the end of the list; any one of them ends it.
    public var endSignals: [EndSignal]
    /// Which fields of an item hold a post's parts.
    public var fields: FieldMapping
    /// The largest page size the backend accepts.
    public var maximumPageSize: Int

    public init(
        name: String, baseURL: URL, postsPath: String, postPath: String?, pagination: PaginationStyle,
        items: ItemsLocation, total: TotalSource, endSignals: [EndSignal], fields: FieldMapping = FieldMapping(),
        maximumPageSize: Int = 100
    ) {
        self.name = name
        self.baseURL = baseURL
        self.postsPath = postsPath
        self.postPath = postPath
        self.pagination = pagination
        self.items = items
        self.total = total
        self.endSignals = endSignals
        self.fields = fields
        self.maximumPageSize = maximumPageSize
    }

    /// Identifies the backend in list state, so state saved for one backend is never
    /// restored into another: the name, the base URL and the posts path.
    public var identity: String {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        return "\(name) \(root)\(postsPath)"
    }
}

/// How pages are addressed.
public enum PaginationStyle: Sendable, Hashable, Codable {
    /// `?{page}=N&{limit}=M`, N from 1 (PostFeed's `page`/`limit`, json-server's `_page`/`_limit`).
    case pageNumber(page: String, limit: String)
    /// `?{offset}=S&{limit}=M` (DummyJSON's `skip`/`limit`).
    case offset(offset: String, limit: String)
    /// `?{cursor}=C&{limit}=M`, C read from the body field `nextCursorField`; omitted for the first page.
    case cursor(cursor: String, limit: String, nextCursorField: String)
    /// The first page at ``BackendDescription/postsPath`` with `?{limit}=M`, then the `Link`
    /// header's `rel="next"` URL as is (GitHub style).
    case linkHeader(limit: String?)
}

/// Where the list of items sits in a page body.
public enum ItemsLocation: Sendable, Hashable, Codable {
    /// The body is a JSON array.
    case root
    /// The body is an object and the items are under this key (`posts`, `data`).
    case key(String)
}

/// Where the total count of posts comes from.
public enum TotalSource: Sendable, Hashable, Codable {
    case header(String)
    case bodyField(String)
    case unknown
}

/// One way a backend says the list has ended.
public enum EndSignal: Sendable, Hashable, Codable {
    /// The `Link` header has no `rel="next"`.
    case linkWithoutNext
    /// The posts seen so far reach the total.
    case totalReached
    /// A boolean body field is false (`hasMore`).
    case flagFalse(String)
    /// A body field is null or missing (`nextCursor`, json-server v1's `next`).
    case fieldNull(String)
    /// A page shorter than the page size.
    case shortPage
}

/// Field names of an item, each with fallbacks tried in order.
public struct FieldMapping: Sendable, Hashable, Codable {
    public var id: [String]
    public var title: [String]
    public var body: [String]
    public var author: [String]
    public var image: [String]
    public var createdAt: [String]
    public var popularity: [String]

    public init(
        id: [String] = ["id"],
        title: [String] = ["title", "name"],
        body: [String] = ["body", "content", "text"],
        author: [String] = ["author", "userName", "username", "userId"],
        image: [String] = ["imageUrl", "image", "thumbnailUrl", "url"],
        createdAt: [String] = ["createdAt", "created_at", "date", "publishedAt"],
        popularity: [String] = ["popularity", "score", "views"]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.image = image
        self.createdAt = createdAt
        self.popularity = popularity
    }
}
