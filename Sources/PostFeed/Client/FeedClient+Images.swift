import Foundation
import PostFeedHTTP

/// A post's image as the client could get it: the image, or why not.
public struct PostImage: Sendable {
    /// The image URL the backend description gives for the post; `nil` when the post's
    /// image URL is empty or blank (``ImagePipelineError/Code/noImageURL``) or no URL at all.
    public var url: URL?
    /// The image; `nil` when it could not be had (see ``error``).
    public var response: ImageResponse?
    /// The disk cache file holding it, when it is on disk.
    public var fileURL: URL?
    /// Why there is no image: `.notCached` offline, otherwise what
    /// ``ImagePipeline/image(for:priority:)`` threw; `nil` when there is one.
    public var error: ImagePipelineError?
}

extension FeedClient {
    /// The image of `post` through memory → disk → network (caches only when offline);
    /// `nil` when the post has no image field.
    ///
    /// A post whose image URL is empty or blank has no image to fetch: its image has no
    /// URL and the error `.noImageURL` ("the post's image URL is empty"), and nothing is
    /// requested. (Resolved against the base URL, an empty text would name the backend
    /// itself as the image.)
    public func image(for post: Post, priority: HTTPPriority = .high) async -> PostImage? {
        guard let text = post.imageURL?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        guard !text.isEmpty else {
            return PostImage(
                url: nil, response: nil, fileURL: nil,
                error: ImagePipelineError(.noImageURL, url: nil, message: Self.emptyImageURLMessage))
        }
        guard let url = backend.imageURL(for: post) else {
            // The post names an image that cannot be fetched: say so rather than nothing,
            // and say which: no URL at all (`http://[::1`), or not http(s).
            let shown = ImagePipelineError.shown(URLUserInfo.removed(from: text))
            let reason = URL(string: text, relativeTo: backend.baseURL) == nil
                ? "'\(shown)' is not a valid URL"
                : "'\(shown)' cannot be fetched (only http and https images are)"
            let named = URL(string: text)
            return PostImage(
                url: named, response: nil, fileURL: nil, error: ImagePipelineError(.unsupportedURL, url: named, message: reason))
        }
        do {
            let response = try await images.image(for: url, priority: priority)
            return PostImage(url: url, response: response, fileURL: images.cachedFileURL(for: url), error: nil)
        } catch {
            return PostImage(url: url, response: nil, fileURL: nil, error: error)
        }
    }

    /// What a post whose image URL is empty or blank gets instead of an image.
    public static let emptyImageURLMessage = "the post's image URL is empty"

    /// The images of `posts`, fetched concurrently (the engine caps connections), in order.
    public func images(for posts: [Post], priority: HTTPPriority = .high) async -> [PostImage?] {
        await withTaskGroup(of: (Int, PostImage?).self) { group in
            for (index, post) in posts.enumerated() {
                group.addTask { (index, await self.image(for: post, priority: priority)) }
            }
            var results = [PostImage?](repeating: nil, count: posts.count)
            for await (index, image) in group { results[index] = image }
            return results
        }
    }
}
