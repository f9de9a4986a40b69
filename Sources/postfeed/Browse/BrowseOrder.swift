import PostFeed
import PostFeedPreview

/// `s` and `u` in `browse`: which loaded posts the infinite view shows, in which order.
/// The feed keeps the backend's order; the view is a list of feed indices over it, so
/// the reader's place (a feed index) and the saved state are the same whatever is shown.
enum BrowseOrder {
    /// Feed indices in display order, or `nil` when the view is the feed as it is.
    ///
    /// - Parameters:
    ///   - ids: the loaded post ids, in feed order.
    ///   - popularity: each post's popularity (missing counts lowest, see ``PopularityRanking``).
    ///   - byPopularity: most popular first across everything loaded (ties keep feed order).
    ///   - unseenOnly: hide the posts in `hidden` (shown in earlier runs) unless in `kept`
    ///     (shown in this run).
    static func make(
        ids: [PostID], popularity: [PostID: Double], byPopularity: Bool, unseenOnly: Bool, hidden: PostIDSet, kept: Set<PostID>
    ) -> [Int]? {
        guard byPopularity || unseenOnly else { return nil }
        var indices = Array(ids.indices)
        if unseenOnly {
            indices.removeAll { hidden.contains(ids[$0]) && !kept.contains(ids[$0]) }
        }
        if byPopularity {
            // The library's one popularity order: none lowest, ties in the feed's order.
            indices = PopularityRanking.ordered(indices) { (popularity[ids[$0]], $0) }
        }
        return indices
    }

    /// Where the post at feed index `feedIndex` is in `order` (the feed itself when `nil`);
    /// the nearest following shown post when it is hidden, else the last.
    static func position(ofFeedIndex feedIndex: Int, in order: [Int]?) -> Int {
        guard let order else { return max(0, feedIndex) }
        if let exact = order.firstIndex(of: feedIndex) { return exact }
        return order.firstIndex { $0 > feedIndex } ?? max(0, order.count - 1)
    }
}
