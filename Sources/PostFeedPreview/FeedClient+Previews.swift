import PostFeed
import Foundation
import PostFeedHTTP
import PostFeedImaging

extension FeedClient {
    /// The image of `post` drawn for a terminal in `style`, fitting in `cells` (columns ×
    /// rows): the image through the pipeline (memory → disk → network, revalidated when
    /// expired), then the thumbnail cache, decoding only on a miss (``previews``).
    /// `nil` when the post has no image or `style` draws nothing.
    ///
    /// ```swift
    /// // browse's detail view: the terminal's width, at most half its height
    /// let box = PixelSize(width: columns, height: rows / 2)
    /// if let preview = try await client.preview(for: post, fittingIn: box, style: style) {
    ///     write(preview.text)   // preview.cells.height rows
    /// }
    /// ```
    /// Cancel the calling task to abandon it (a list scrolled past): it throws `.cancelled`.
    /// Needs ``ImagePreviews`` among the client's plugins.
    /// - Throws: ``ImagePreviewError``: `.unavailable` (the pipeline's reason, or no
    ///   ``ImagePreviews`` plugin),
    ///   `.undecodable`, `.cancelled`.
    public func preview(
        for post: Post, fittingIn cells: PixelSize, style: PreviewStyle, priority: HTTPPriority = .high
    ) async throws(ImagePreviewError) -> ImagePreview? {
        guard style.imageProtocol != .none, let image = await image(for: post, priority: priority) else { return nil }
        guard let response = image.response else {
            if let error = image.error, error.code == .cancelled { throw .cancelled(image.url) }
            throw .unavailable(image.url, reason: image.error.map { "\($0.message)" } ?? "no image")
        }
        guard let previews else {
            throw .unavailable(image.url, reason: "the client draws no previews (its plugins have no ImagePreviews)")
        }
        return try await previews.preview(of: response, fittingIn: cells, style: style)
    }

    /// The preview of `post` only if the thumbnail cache already holds it and the image
    /// is cached (memory or disk): no network, no decoding. For drawing list thumbnails
    /// synchronously; ask ``preview(for:fittingIn:style:priority:)`` for the misses.
    public func storedPreview(for post: Post, fittingIn cells: PixelSize, style: PreviewStyle) -> ImagePreview? {
        guard style.imageProtocol != .none, let url = backend.imageURL(for: post),
              let response = images.cachedImage(for: url) else { return nil }
        return previews?.storedPreview(of: response, fittingIn: cells, style: style)
    }
}
