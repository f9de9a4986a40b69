import PostFeedModels

/// The posts a server that ignores the page size sends (``PaginationQuirks/ignoresPageSize``):
/// the first `count` of the catalog, which repeats past its end with new ids (each round's
/// integer ids shifted past the largest one, other ids suffixed `~round`), so every id
/// stays unique however long the page.
enum RepeatedPosts {
    static func first(_ count: Int?, of posts: [Post]) -> [Post] {
        guard let count else { return posts }
        guard count > 0, !posts.isEmpty else { return [] }
        if count <= posts.count { return Array(posts[..<count]) }
        let stride = max(posts.compactMap(\.id.integerValue).max() ?? 0, 0) + 1
        var result: [Post] = []
        result.reserveCapacity(count)
        var round = 0
        while result.count < count {
            // Saturating: a shifted id past Int.max is no id; the page simply ends there.
            let (shift, overflow) = round.multipliedReportingOverflow(by: stride)
            guard !overflow else { break }
            for post in posts where result.count < count {
                var copy = post
                if let number = post.id.integerValue {
                    let (id, idOverflow) = number.addingReportingOverflow(shift)
                    guard !idOverflow else { return result }
                    copy.id = PostID(id)
                } else if round > 0 {
                    copy.id = PostID("\(post.id.text)~\(round)") ?? post.id
                }
                result.append(copy)
            }
            round += 1
        }
        return result
    }
}
