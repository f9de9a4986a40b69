import Foundation
import Logging

/// Something that plugs into a ``FeedClient`` from a product of its own, so the core links
/// nothing it does not need: `PostFeedPreview`'s `ImagePreviews` (decoders, libchafa,
/// thumbnails) is one. The core never imports a plugin's module; a plugin names the disk
/// layers it keeps under the cache root, the client opens them with its own rules (the same
/// ``FeedClient/Configuration/unusableCacheRoot`` policy as its own layers) and hands them,
/// with the image pipeline, to ``makePart(_:)``.
///
/// ```swift
/// var configuration = FeedClient.Configuration(backend: backend, cacheLocation: location)
/// configuration.plugins = [ImagePreviews()]        // import PostFeedPreview
/// let client = try FeedClient(configuration)
/// let previews = client.part(ImagePreviewer.self)   // what the plugin built
/// ```
public protocol FeedClientPlugin: Sendable {
    /// The disk layers this plugin keeps under the cache root (e.g. `ThumbnailCache`),
    /// opened by the client before ``makePart(_:)`` and by ``FeedStorage`` for maintenance.
    var diskLayers: [FeedStorage.Layer] { get }

    /// Builds what the plugin adds to the client, once, while the client is built.
    /// - Throws: ``FeedClientError`` when it cannot be built.
    func makePart(_ context: FeedClient.PluginContext) throws(FeedClientError) -> any FeedClientPart
}

/// What a ``FeedClientPlugin`` adds to a client: found again with ``FeedClient/part(_:)``,
/// shut down by ``FeedClient/shutdown()`` after the transfers ended and before the client's
/// own caches are flushed.
public protocol FeedClientPart: AnyObject, Sendable {
    /// Finishes what the part writes (e.g. flushes its disk layers' write queues).
    func shutdown() async
}

extension FeedClient {
    /// What a plugin is built from: the client's parts it may use.
    public struct PluginContext: Sendable {
        /// The cache root and its folders.
        public let location: CacheLocation
        /// The client's image pipeline (memory → disk → network).
        public let images: ImagePipeline
        /// The client's image disk layer.
        public let imageCache: DiskCache
        /// Where the client's metrics and spans go.
        public let telemetry: FeedTelemetry
        /// The client's logger.
        public let logger: Logger
        /// The plugin's own disk layers (``FeedClientPlugin/diskLayers``), by folder name.
        public let diskLayers: [String: DiskCache]
    }

    /// The part of type `type` a plugin added (``Configuration/plugins``), or `nil`.
    public func part<Part: FeedClientPart>(_ type: Part.Type) -> Part? {
        for part in parts {
            if let match = part as? Part { return match }
        }
        return nil
    }
}

extension FeedStorage {
    /// One disk layer under the cache root: its folder's name and its settings.
    public struct Layer: Sendable {
        /// The folder under the cache root, e.g. `ThumbnailCache`.
        public var name: String
        /// Size limit, syncing, expiry.
        public var configuration: DiskCache.Configuration

        /// A layer in `<root>/<name>` with `configuration`.
        public init(name: String, configuration: DiskCache.Configuration) {
            self.name = name
            self.configuration = configuration
        }
    }
}
