/// The body of `GET /api/posts` in PostFeed's own API (the fixture backend's):
/// `{"posts":[…], "page":N, "limit":M, "total":T, "totalPages":P, "hasMore":Bool, "nextCursor":String|null}`.
///
/// Shared by the fixture server, which encodes it, and the repository's `postfeed` preset,
/// which decodes it.
public struct PostListResponse: Codable, Sendable, Equatable {
    /// This page's posts, in list order.
    public var posts: [Post]
    /// This page's 1-based number; in cursor mode, the page the cursor falls in
    /// (`offset / limit + 1`).
    public var page: Int
    /// The page size the request asked for (`?limit=`).
    public var limit: Int
    /// Posts in the whole list, not just this page.
    public var total: Int
    /// Pages of `limit` posts in the whole list; at least 1, since an empty list has
    /// one empty page.
    public var totalPages: Int
    /// `true` when posts follow this page.
    public var hasMore: Bool
    /// Opaque token for the next page in cursor mode; `null` at the end of the list.
    public var nextCursor: String?

    /// Makes a body; `nextCursor` should be `nil` exactly when `hasMore` is `false`.
    public init(
        posts: [Post], page: Int, limit: Int, total: Int, totalPages: Int, hasMore: Bool,
        nextCursor: String?
    ) {
        self.posts = posts
        self.page = page
        self.limit = limit
        self.total = total
        self.totalPages = totalPages
        self.hasMore = hasMore
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case posts, page, limit, total, totalPages, hasMore, nextCursor
    }

    /// Encodes every field, `nextCursor` as an explicit `null` on the last page rather than
    /// leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(posts, forKey: .posts)
        try container.encode(page, forKey: .page)
        try container.encode(limit, forKey: .limit)
        try container.encode(total, forKey: .total)
        try container.encode(totalPages, forKey: .totalPages)
        try container.encode(hasMore, forKey: .hasMore)
        // Always present, `null` at the end, as DESIGN.md's API says.
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// The JSON error body the fixture backend sends with `400` and `404`:
/// `{"error":{"status":404,"message":"page 99 is past the end (13 pages)"}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    /// The object under `"error"`.
    public struct Detail: Codable, Sendable, Equatable {
        /// The HTTP status the body was sent with, e.g. `404`.
        public var status: Int
        /// What went wrong, in one sentence for people, e.g. `page 99 is past the end (13 pages)`.
        public var message: String
        /// Makes the `"error"` object.
        public init(status: Int, message: String) {
            self.status = status
            self.message = message
        }
    }
    /// The `"error"` member, the body's only one.
    public var error: Detail
    /// Makes a body with `status` and `message` nested under `"error"`.
    public init(status: Int, message: String) {
        self.error = Detail(status: status, message: message)
    }
}
