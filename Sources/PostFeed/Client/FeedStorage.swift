import Foundation
import PostFeedCache

/// What a ``FeedClient`` keeps on disk under one cache root, opened with the client's own
/// settings but without a backend or an HTTP engine: for maintenance (`postfeed cache`,
/// `postfeed state`) and tools that inspect a cache a client wrote.
///
/// ```swift
/// let storage = try FeedStorage(location: .resolve())
/// print(storage.pageCache.statistics().sizeLimit)   // 64 MiB, as the client uses
/// ```
public struct FeedStorage: Sendable {
    /// The image disk layer's default settings (size limit 256 MiB, writes not `fsync`ed:
    /// an image lost or torn by a power cut fails its checksum and is fetched again, and
    /// 19 synced writes in a row cost a cold page tens of milliseconds; see
    /// `DiskCache.Configuration.synchronizesWrites`).
    public static let defaultImageCache = DiskCache.Configuration(synchronizesWrites: false)
    /// The page disk layer's default settings (size limit 64 MiB, writes not `fsync`ed, as
    /// for images: a page lost or torn by a power cut is fetched again, and its synced
    /// write held back the requests for its images). The reader's place (list state) is
    /// written and synced on its own.
    public static let defaultPageCache = DiskCache.Configuration(sizeLimit: 64 << 20, synchronizesWrites: false)
    /// The cache root and its folders.
    public let location: CacheLocation
    /// `<root>/ImageCache`.
    public let imageCache: DiskCache
    /// `<root>/PageCache`.
    public let pageCache: DiskCache
    /// The plugins' layers (``FeedClientPlugin/diskLayers``), e.g. `PostFeedPreview`'s
    /// `<root>/ThumbnailCache`, in the order given.
    public let layers: [(name: String, cache: DiskCache)]
    /// `<root>/State`: each list mode's saved place.
    public let stateStore: ListStateStore

    /// Opens the disk layers at `location` with the given settings (a client's
    /// ``FeedClient/Configuration`` passes its own), creating their folders when missing:
    /// images, pages, and each of `layers` (a plugin's, e.g. `ImagePreviews().diskLayers`).
    /// - Throws: ``FeedClientError`` `.cacheUnavailable` naming the folder that cannot be used.
    public init(
        location: CacheLocation, imageCache: DiskCache.Configuration = Self.defaultImageCache,
        pageCache: DiskCache.Configuration = Self.defaultPageCache,
        layers: [Layer] = []
    ) throws(FeedClientError) {
        self.location = location
        self.imageCache = try Self.open(location.imageCache, imageCache)
        self.pageCache = try Self.open(location.pageCache, pageCache)
        var opened: [(name: String, cache: DiskCache)] = []
        for layer in layers {
            opened.append((layer.name, try Self.open(location.root.appendingPathComponent(layer.name, isDirectory: true), layer.configuration)))
        }
        self.layers = opened
        self.stateStore = ListStateStore(cacheRoot: location.root)
    }

    /// The same storage as a client with `configuration` uses, its plugins' layers included.
    public init(_ configuration: FeedClient.Configuration) throws(FeedClientError) {
        try self.init(
            location: configuration.cacheLocation, imageCache: configuration.imageCache, pageCache: configuration.pageCache,
            layers: configuration.plugins.flatMap(\.diskLayers))
    }

    /// The disk layers by folder name: images, pages, then the plugins' layers.
    public var diskCaches: [(name: String, cache: DiskCache)] {
        [("ImageCache", imageCache), ("PageCache", pageCache)] + layers
    }

    /// The plugin layer in the folder `name`, or `nil` when it was not opened.
    public func layer(named name: String) -> DiskCache? {
        layers.first { $0.name == name }?.cache
    }

    private static func open(_ url: URL, _ configuration: DiskCache.Configuration) throws(FeedClientError) -> DiskCache {
        do {
            return try DiskCache(directory: url, configuration: configuration)
        } catch {
            throw FeedClientError(.cacheUnavailable, "cannot open \(url.path): \(error)")
        }
    }
}
