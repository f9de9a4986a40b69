import Foundation

/// An image the pipeline delivered, with where it came from.
public struct ImageResponse: Sendable {
    public enum Source: String, Sendable, Hashable {
        /// The memory layer.
        case memory
        /// The disk layer, still fresh.
        case disk
        /// The disk layer after the server answered `304`.
        case revalidated
        /// Downloaded now.
        case network
    }

    public var url: URL
    /// The cache key the URL normalised to.
    public var cacheKey: String
    public var data: Data
    public var info: ImageInfo
    public var source: Source
    /// Served from the disk cache past its expiry because the network failed.
    public var isStale: Bool
}

/// What the memory layer holds for one image.
struct CachedImage: Sendable {
    var data: Data
    var info: ImageInfo
    var expiresAt: Date?
}
