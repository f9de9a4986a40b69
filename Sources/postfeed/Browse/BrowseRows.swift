/// Which rows the `browse` list has on a window `rows` high: the one answer that
/// ``BrowseLayout/lines(_:rows:columns:)``, ``BrowseLayout/entriesThatFit(_:rows:)``,
/// ``BrowseLayout/entryRows(_:rows:)``, ``BrowseLayout/postsThatFit(rows:linesPerPost:)`` and
/// the thumbnails share.
///
/// - From ``fullFrameRows`` rows, the full frame: header, rule, posts, rule, hints, status.
/// - From 3 rows, compact: header, posts, status (the rules and hints would take the posts'
///   rows; `?` lists the keys).
/// - 2 rows: the current post's row, then the status line.
/// - 1 row: the current post's row alone (a prompt being typed takes it, as it takes the
///   status line).
///
/// So every height has at least one post row, and no header claims posts it cannot show.
struct BrowseRows: Equatable {
    /// The header on the first row.
    var header: Bool
    /// A rule under the header and one above the hints.
    var rules: Bool
    /// The hints line above the status line.
    var hints: Bool
    /// The status line (or the prompt) on the last row.
    var status: Bool
    /// Rows for the posts (at least 1).
    var posts: Int

    /// The fewest rows the full frame is drawn on (it leaves 2 rows, a post, for the posts).
    static let fullFrameRows = 7

    init(rows: Int) {
        let rows = max(1, rows)
        switch rows {
        case Self.fullFrameRows...:
            (header, rules, hints, status) = (true, true, true, true)
        case 3...:
            (header, rules, hints, status) = (true, false, false, true)
        case 2:
            (header, rules, hints, status) = (false, false, false, true)
        default:
            (header, rules, hints, status) = (false, false, false, false)
        }
        posts = rows - (header ? 1 : 0) - (rules ? 2 : 0) - (hints ? 1 : 0) - (status ? 1 : 0)
    }

    /// The screen row (1-based) of the first post row.
    var firstPostRow: Int { 1 + (header ? 1 : 0) + (rules ? 1 : 0) }

    /// The screen row (1-based) of the last post row.
    var lastPostRow: Int { firstPostRow + posts - 1 }
}
