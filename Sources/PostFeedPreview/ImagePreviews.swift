import Foundation
import PostFeed
import PostFeedImaging

/// Terminal previews for a ``FeedClient``: the plugin that gives a client an
/// ``ImagePreviewer`` over a thumbnail cache in `<root>/ThumbnailCache`. A client without it
/// makes no such folder and links no decoder or libchafa.
///
/// ```swift
/// import PostFeedPreview
///
/// var configuration = FeedClient.Configuration(backend: backend, cacheLocation: .resolve())
/// configuration.plugins.append(ImagePreviews())
/// try await FeedClient.withFeedClient(configuration) { client in
///     let post = try await client.post(id: "42")
///     if let preview = try await client.preview(for: post, fittingIn: PixelSize(width: 40, height: 20), style: PreviewStyle(imageProtocol: .symbols)) {
///         print(preview.text)
///     }
/// }
/// ```
public struct ImagePreviews: FeedClientPlugin {
    /// The thumbnail layer's folder under the cache root.
    public static let folderName = "ThumbnailCache"
    /// The thumbnail disk layer's default settings (size limit 32 MiB).
    public static let defaultThumbnailCache = DiskCache.Configuration(sizeLimit: 32 << 20)

    /// The thumbnail disk layer (`<root>/ThumbnailCache`): rendered previews.
    public var thumbnailCache: DiskCache.Configuration
    /// The decoder, with its pixel-count limit.
    public var decoder: ImageDecoder

    /// Previews with a thumbnail layer of `thumbnailCache`'s settings, decoded by `decoder`.
    public init(thumbnailCache: DiskCache.Configuration = Self.defaultThumbnailCache, decoder: ImageDecoder = ImageDecoder()) {
        self.thumbnailCache = thumbnailCache
        self.decoder = decoder
    }

    /// `ThumbnailCache`.
    public var diskLayers: [FeedStorage.Layer] {
        [FeedStorage.Layer(name: Self.folderName, configuration: thumbnailCache)]
    }

    /// An ``ImagePreviewer`` over the thumbnail layer, judged against the client's images.
    public func makePart(_ context: FeedClient.PluginContext) throws(FeedClientError) -> any FeedClientPart {
        guard let disk = context.diskLayers[Self.folderName] else {
            throw FeedClientError(.cacheUnavailable, "the thumbnail cache was not opened under \(context.location.root.path)")
        }
        return ImagePreviewer(
            thumbnails: ThumbnailCache(disk: disk, originals: context.imageCache), decoder: decoder, telemetry: context.telemetry)
    }
}

extension ImagePreviewer: FeedClientPart {
    /// Flushes the thumbnail layer's writes and keeps its hit and miss counts (for
    /// `postfeed cache stats`).
    public func shutdown() async {
        await thumbnails.disk.flush()
        try? thumbnails.disk.persistCounters()
    }
}

extension FeedClient {
    /// The previewer ``ImagePreviews`` added, or `nil` when the client has no such plugin.
    public var previews: ImagePreviewer? { part(ImagePreviewer.self) }

    /// The thumbnail disk layer (`<root>/ThumbnailCache`, or the client's fallback
    /// folder), or `nil` without ``ImagePreviews``.
    public var thumbnailCache: DiskCache? { previews?.thumbnails.disk }
}

extension FeedStorage {
    /// `<root>/ThumbnailCache`, when the storage was opened with ``ImagePreviews``'s layers.
    public var thumbnailCache: DiskCache? { layer(named: ImagePreviews.folderName) }

    /// The thumbnails, judged against the images they were made from; `nil` without the
    /// thumbnail layer.
    public var thumbnails: ThumbnailCache? {
        thumbnailCache.map { ThumbnailCache(disk: $0, originals: imageCache) }
    }
}
