import Foundation

/// Where a page starts, in the backend's own pagination style.
///
/// Stored in list state, so the next run can continue where the reader stopped.
public enum PageKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based page number (`?page=N`, `?_page=N`).
    case number(Int)
    /// Items to skip (`?skip=S`, `?offset=S`).
    case offset(Int)
    /// An opaque cursor token; `nil` asks for the first page.
    case cursor(String?)
    /// A URL to fetch as is (`Link: <…>; rel="next"`); `nil` asks for the first page.
    case link(URL?)

    /// `page 3`, `offset 40`, `cursor abc`, `link http://…`, or `first page`.
    public var description: String {
        switch self {
        case .number(let page): "page \(page)"
        case .offset(let offset): "offset \(offset)"
        case .cursor(let cursor): cursor.map { "cursor \($0)" } ?? "first page"
        case .link(let url): url.map { "link \($0.absoluteString)" } ?? "first page"
        }
    }
}

/// One page of posts as the repository returns it, in any pagination style.
public struct Page: Sendable, Equatable {
    /// The key that fetched this page.
    public var key: PageKey
    /// The page's posts, in the backend's order; image URLs absolute.
    public var posts: [Post]
    /// The key of the following page; `nil` at the end of the list.
    public var nextKey: PageKey?
    /// Total number of posts when the backend says (`X-Total-Count`, a body field).
    public var totalCount: Int?
    /// This page's 1-based number when it can be known (page or offset styles, or counted).
    public var number: Int?
    /// Number of pages when known.
    public var totalPages: Int?
    /// Served from the page cache out of date (offline, the network or the server
    /// failed): ``staleReason`` is set. Setting `true` without a reason gives a generic one.
    public var isStale: Bool {
        get { staleReason != nil }
        set { staleReason = newValue ? (staleReason ?? "the cached copy may be out of date") : nil }
    }
    /// Served from the page cache without a request, or after a `304`.
    public var isFromCache: Bool
    /// Served from the page cache past its freshness lifetime without asking the server
    /// (a cache policy that uses any cached copy as it is): the server may have a newer
    /// one, and loading the page again with the policy that revalidates expired copies
    /// asks it. `false` for pages fetched or revalidated now, and for fresh cached ones.
    public var isExpired = false
    /// Why the page is out of date: `offline`, `the network failed (cannot connect)`,
    /// `the server failed (HTTP 503)`; `nil` when it is not.
    public var staleReason: String?
    /// How many posts the server sent for this page when it sent more than the page size
    /// asked for (it ignores the page size): ``posts`` then holds only the first page-size
    /// of them, so that posts are never numbered into the next pages' places. `nil` when
    /// the page is no longer than asked, and always in cursor and link styles, whose pages
    /// are taken as long as the server makes them.
    public var sentPostCount: Int?
    /// What could not be read of this page's items, one line each: a post skipped for
    /// its `id` or `title`, or shown without a field of the wrong type
    /// (`post #3 skipped: field "id" is "abc", expected a whole number`). Empty when
    /// every item decoded whole.
    public var decodingProblems: [String] = []

    /// Makes a page; the counts default to unknown, both cache flags to `false` (fresh
    /// from the network), and ``sentPostCount`` to `nil` (no longer than asked).
    public init(
        key: PageKey, posts: [Post], nextKey: PageKey?, totalCount: Int? = nil, number: Int? = nil,
        totalPages: Int? = nil, isStale: Bool = false, isFromCache: Bool = false, sentPostCount: Int? = nil,
        decodingProblems: [String] = []
    ) {
        self.key = key
        self.posts = posts
        self.nextKey = nextKey
        self.totalCount = totalCount
        self.number = number
        self.totalPages = totalPages
        self.staleReason = isStale ? "the cached copy may be out of date" : nil
        self.isFromCache = isFromCache
        self.sentPostCount = sentPostCount
        self.decodingProblems = decodingProblems
    }

    /// `true` when no page follows this one.
    public var isLast: Bool { nextKey == nil }
}
