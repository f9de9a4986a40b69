import Foundation

/// An order of the feed's posts.
public enum FeedOrdering: String, Sendable, Hashable, Codable, CaseIterable {
    /// As the backend lists them.
    case backend
    /// Most popular first across the whole feed: ``FeedClient/popularityOrder(maximumPosts:progress:)``.
    case popularity
}

extension BackendDescription {
    /// The absolute URL of a post's image: `imageUrl` may be absolute or relative to the
    /// backend's base URL. `nil` when the post has no image or the text is not a URL.
    public func imageURL(for post: Post) -> URL? {
        guard let text = post.imageURL?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
            let url = URL(string: text, relativeTo: baseURL)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return url
    }
}
