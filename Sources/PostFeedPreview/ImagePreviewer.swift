import PostFeed
import CoreMetrics
import Foundation
import PostFeedImaging
import Synchronization

/// Turns images into previews for a terminal, through a ``ThumbnailCache``: the first
/// preview of an image at a size and style decodes and renders it and stores the result;
/// every later one reads that thumbnail and decodes nothing (``decodeCount`` says so).
///
/// ```swift
/// let image = try await client.images.image(for: url)
/// let preview = try await client.previews.preview(of: image, fittingIn: PixelSize(width: 40, height: 20), style: style)
/// print(preview.text)
/// ```
///
/// Thread-safe; previews of different images run concurrently. Decoding happens on the
/// calling task; cancellation is checked before decoding, before rendering and before
/// storing.
public final class ImagePreviewer: Sendable {
    /// Where previews are kept.
    public let thumbnails: ThumbnailCache
    /// The decoder, with its pixel-count limit (decompression bombs are refused from
    /// their header).
    public let decoder: ImageDecoder
    private let decodes = Atomic<Int>(0)
    private let metrics: PreviewMetrics

    /// A previewer keeping its thumbnails in `thumbnails`, counting its thumbnail hits,
    /// misses and decodes through `telemetry`'s metrics factory
    /// (`postfeed_thumbnail_lookups_total`, `postfeed_image_decodes_total`).
    public init(thumbnails: ThumbnailCache, decoder: ImageDecoder = ImageDecoder(), telemetry: FeedTelemetry = .system) {
        self.thumbnails = thumbnails
        self.decoder = decoder
        metrics = PreviewMetrics(factory: telemetry.metricsFactory ?? MetricsSystem.factory)
    }

    /// How many originals this previewer has decoded: a preview served from the
    /// thumbnail cache does not count.
    public var decodeCount: Int { decodes.load(ordering: .relaxed) }

    /// `image` drawn in `style` to fit in `cells` (columns × rows), keeping its aspect
    /// ratio: from the thumbnail cache when it holds this image (same validator), size
    /// and style, else decoded, rendered and stored there. The `none` style gives an
    /// empty preview without reading anything.
    /// - Throws: ``ImagePreviewError`` `.undecodable` (one line: truncated, corrupt, or a
    ///   bomb with its dimensions and the limit) or `.cancelled`.
    public func preview(
        of image: ImageResponse, fittingIn cells: PixelSize, style: PreviewStyle
    ) async throws(ImagePreviewError) -> ImagePreview {
        guard style.imageProtocol != .none, cells.width > 0, cells.height > 0 else {
            return ImagePreview(text: "", cells: PixelSize(width: 0, height: 0), imageProtocol: .none, source: .rendered)
        }
        let validator = thumbnails.validator(for: image)
        let key = ThumbnailCache.key(originalKey: image.cacheKey, validator: validator, cells: cells, style: style)
        if let stored = thumbnails.preview(forKey: key, style: style) {
            metrics.thumbnailHits.increment()
            return stored
        }
        metrics.thumbnailMisses.increment()
        if Task.isCancelled { throw .cancelled(image.url) }

        let renderer = style.renderer
        // libchafa sets itself up on another core while this one decodes.
        renderer.prepareInBackground()
        decodes.add(1, ordering: .relaxed)
        metrics.decodes.increment()
        let pixels: RGBAImage
        do {
            pixels = try decoder.decode(image.data, for: renderer, fittingIn: cells)
        } catch {
            throw .undecodable(image.url, reason: error.message)
        }
        if Task.isCancelled { throw .cancelled(image.url) }
        let preview = ImagePreview(
            text: renderer.render(pixels, fittingIn: cells), cells: renderer.cells(for: pixels.size, fittingIn: cells),
            imageProtocol: style.imageProtocol, source: .rendered)
        if Task.isCancelled { throw .cancelled(image.url) }
        await thumbnails.store(preview, forKey: key, image: image, validator: validator)
        return preview
    }

    /// The stored preview of `image`, or `nil`: never decodes (for drawing a list
    /// synchronously, asking ``preview(of:fittingIn:style:)`` for the misses).
    public func storedPreview(of image: ImageResponse, fittingIn cells: PixelSize, style: PreviewStyle) -> ImagePreview? {
        guard style.imageProtocol != .none else { return nil }
        let key = ThumbnailCache.key(
            originalKey: image.cacheKey, validator: thumbnails.validator(for: image), cells: cells, style: style)
        return thumbnails.preview(forKey: key, style: style)
    }
}
