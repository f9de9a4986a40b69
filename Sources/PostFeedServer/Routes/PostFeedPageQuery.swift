import Hummingbird

/// A validated `GET /api/posts` query: page mode or cursor mode, and the page size.
struct PostFeedPageQuery: Equatable {
    enum Position: Equatable {
        /// `?page=N` (or no position at all: page 1).
        case page(Int)
        /// `?cursor=C`, decoded to an offset; an empty or absent cursor in cursor mode is 0.
        case cursor(offset: Int)
    }

    static let defaultLimit = 20
    static let maximumLimit = 100

    var position: Position
    var limit: Int

    /// Validates the query; every rejection is a `400` naming the parameter and the fix.
    ///
    /// - Parameter value: The (first) value of a query parameter, percent-decoded.
    static func parse(_ value: (String) -> String?) throws -> PostFeedPageQuery {
        let limit = try parseLimit(value("limit"))
        let page = value("page")
        let cursor = value("cursor")
        switch (page, cursor) {
        case (.some, .some):
            throw APIError.badRequest("use either page or cursor, not both")
        case (.some(let text), nil):
            guard let number = Int(text) else {
                throw APIError.badRequest("page '\(text)' is not a whole number; use page=1 or more")
            }
            guard number >= 1 else {
                throw APIError.badRequest("page \(number) is out of range; pages start at 1")
            }
            return PostFeedPageQuery(position: .page(number), limit: limit)
        case (nil, .some(let token)):
            if token.isEmpty { return PostFeedPageQuery(position: .cursor(offset: 0), limit: limit) }
            guard let offset = PageCursor.decode(token) else {
                throw APIError.badRequest(
                    "cursor '\(token)' is not valid; pass the nextCursor of a previous page, or omit cursor for the first page")
            }
            return PostFeedPageQuery(position: .cursor(offset: offset), limit: limit)
        case (nil, nil):
            return PostFeedPageQuery(position: .page(1), limit: limit)
        }
    }

    private static func parseLimit(_ text: String?) throws -> Int {
        guard let text else { return defaultLimit }
        guard let limit = Int(text) else {
            throw APIError.badRequest("limit '\(text)' is not a whole number; use 1…\(maximumLimit)")
        }
        guard (1...maximumLimit).contains(limit) else {
            throw APIError.badRequest("limit \(limit) is out of range; use 1…\(maximumLimit)")
        }
        return limit
    }
}
