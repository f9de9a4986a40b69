import Foundation
import PostFeedModels

extension FeedItem {
    /// The item as a ``Post``: its ``id``, its title (else the first line of its text, as
    /// a microblog post's title), its content (else summary) kept as the feed sent it with
    /// its format (``Post/bodyFormat``), author, publication date (else the update's),
    /// image, and link. Feeds carry no popularity.
    public var post: Post {
        let text = content ?? summary
        let format: PostBodyFormat? = switch text {
        case .html?: .html
        case .markdown?: .markdown
        case .text?: .plain
        case nil: nil
        }
        var post = Post(
            id: PostID(id) ?? PostID(FeedReading.contentHash(id)) ?? PostID(0), title: title ?? "",
            body: text?.original ?? "", author: author, imageURL: imageURL?.absoluteString, createdAt: published ?? updated,
            bodyFormat: format, link: link?.absoluteString)
        if title == nil {
            // No title (a microblog post): the first line of the text stands for it.
            let firstLine = renderedBody().body.split(separator: "\n").first.map(String.init) ?? ""
            post.title = firstLine.count > 120 ? String(firstLine.prefix(119)) + "…" : firstLine
        }
        return post
    }
}
