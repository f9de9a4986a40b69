import Foundation
import PostFeed
import PostFeedPreview

/// `/` in `browse`: which loaded posts a query matches.
enum BrowseSearch {
    /// Indices of the posts whose title, author or body contains `query`, ignoring case
    /// and diacritics ("cafe" finds "Café").
    static func matches(of query: String, in posts: [Post]) -> [Int] {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return [] }
        return posts.indices.filter { index in
            let post = posts[index]
            return [post.title, post.author ?? "", post.body].contains {
                $0.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        }
    }
}
