import PostFeedModels

/// One page of PostFeed's list, computed from a validated query: the body and what the
/// `Link` header needs.
struct PostFeedPage {
    var response: PostListResponse
    let offset: Int
    /// Query items (in order) for each relation: first, prev, next, last.
    let links: [(rel: String, query: [(String, String)])]

    /// The page, or a `404`/`400` ``APIError`` when the position is past the end.
    static func make(query: PostFeedPageQuery, posts: [Post]) throws -> PostFeedPage {
        let limit = query.limit
        let total = posts.count
        // An empty list still has one (empty) page, so page 1 is always valid.
        let totalPages = max(1, (total + limit - 1) / limit)
        let offset: Int
        let pageNumber: Int
        switch query.position {
        case .page(let page):
            guard page <= totalPages else {
                throw APIError.notFound(
                    "page \(page) is past the end (\(totalPages) page\(totalPages == 1 ? "" : "s") of \(limit))")
            }
            offset = (page - 1) * limit
            pageNumber = page
        case .cursor(let cursorOffset):
            guard cursorOffset == 0 || cursorOffset < total else {
                throw APIError.badRequest(
                    "cursor points past the end of the list (\(total) posts); start again without a cursor")
            }
            offset = cursorOffset
            pageNumber = cursorOffset / limit + 1
        }
        let end = min(offset + limit, total)
        let items = Array(posts[offset..<end])
        let hasMore = end < total
        let response = PostListResponse(
            posts: items, page: pageNumber, limit: limit, total: total, totalPages: totalPages,
            hasMore: hasMore, nextCursor: hasMore ? PageCursor.encode(offset: end) : nil)
        return PostFeedPage(
            response: response, offset: offset,
            links: links(query: query, offset: offset, end: end, hasMore: hasMore, totalPages: totalPages))
    }

    private static func links(
        query: PostFeedPageQuery, offset: Int, end: Int, hasMore: Bool, totalPages: Int
    ) -> [(rel: String, query: [(String, String)])] {
        let limit = query.limit
        let limitItem = ("limit", String(limit))
        var links: [(rel: String, query: [(String, String)])] = []
        switch query.position {
        case .page(let page):
            func item(_ number: Int) -> [(String, String)] { [("page", String(number)), limitItem] }
            links.append(("first", item(1)))
            if page > 1 { links.append(("prev", item(page - 1))) }
            if page < totalPages { links.append(("next", item(page + 1))) }
            links.append(("last", item(totalPages)))
        case .cursor:
            func item(_ offset: Int) -> [(String, String)] {
                offset == 0 ? [limitItem] : [("cursor", PageCursor.encode(offset: offset)), limitItem]
            }
            links.append(("first", item(0)))
            if offset > 0 { links.append(("prev", item(max(0, offset - limit)))) }
            if hasMore { links.append(("next", item(end))) }
            links.append(("last", item((totalPages - 1) * limit)))
        }
        return links
    }
}
