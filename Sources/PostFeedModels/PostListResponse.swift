/// The body of `GET /api/posts` in PostFeed's own API (the fixture backend's):
/// `{"posts":[…], "page":N, "limit":M, "total":T, "totalPages":P, "hasMore":Bool, "nextCursor":String|null}`.
///
/// Shared by the fixture server, which encodes it, and the repository's `postfeed` preset,
/// which decodes it.
public struct PostListResponse: Codable, Sendable, Equatable {
    public var posts: [Post]
    public var page: Int
    public var limit: Int
    public var total: Int
    public var totalPages: Int
    public var hasMore: Bool
    /// Opaque token for the next page in cursor mode; `null` at the end of the list.
    public var nextCursor: String?

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
    public struct Detail: Codable, Sendable, Equatable {
        public var status: Int
        public var message: String
        public init(status: Int, message: String) {
            self.status = status
            self.message = message
        }
    }
    public var error: Detail
    public init(status: Int, message: String) {
        self.error = Detail(status: status, message: message)
    }
}
