/// The library's one definition of the popularity order, used by
/// ``FeedClient/popularityOrder(maximumPosts:progress:)`` and by any view that sorts loaded
/// posts by popularity (browse's `s`): most popular first; a post without a popularity, or
/// with one that is not finite (NaN, ±infinity), counts lowest; equal ones keep the
/// backend's order.
///
/// ```swift
/// let ranked = PopularityRanking.ordered(posts.indices) { (posts[$0].popularity, $0) }
/// ```
public enum PopularityRanking {
    /// The value a post is ranked by: its popularity, or `-infinity` when it has none or
    /// it is not finite.
    public static func rankValue(_ popularity: Double?) -> Double {
        guard let popularity, popularity.isFinite else { return -.infinity }
        return popularity
    }

    /// Whether the post with `lhs` (popularity, backend position) comes before `rhs`.
    public static func precedes(_ lhs: (popularity: Double?, position: Int), _ rhs: (popularity: Double?, position: Int)) -> Bool {
        let (l, r) = (rankValue(lhs.popularity), rankValue(rhs.popularity))
        return l != r ? l > r : lhs.position < rhs.position
    }

    /// `items` most popular first, `key` giving each one's popularity and backend position.
    public static func ordered<S: Sequence>(_ items: S, by key: (S.Element) -> (popularity: Double?, position: Int)) -> [S.Element] {
        items.map { ($0, key($0)) }.sorted { precedes($0.1, $1.1) }.map(\.0)
    }
}
