import Foundation

/// An image the pipeline delivered, with where it came from.
public struct ImageResponse: Sendable {
    /// Which layer answered.
    public enum Source: String, Sendable, Hashable {
        /// The memory layer.
        case memory
        /// The disk layer, still fresh.
        case disk
        /// The disk layer after the server answered `304`.
        case revalidated
        /// Downloaded now.
        case network
        /// The shared tier (Redis): another instance had fetched it (it is now on this
        /// instance's disk too).
        case shared
    }

    /// The URL as requested.
    public var url: URL
    /// The cache key the URL normalised to.
    public var cacheKey: String
    /// The encoded image bytes as served, not decoded.
    public var data: Data
    /// Format and pixel size, sniffed from ``data``.
    public var info: ImageInfo
    /// Which layer answered: memory, disk, disk after a `304`, the shared tier, or the network.
    public var source: Source
    /// Served out of date: from the disk cache past its expiry because the network or the
    /// server failed, or offline (see ``staleReason``).
    public var isStale: Bool
    /// Why the image is out of date, in the words pages use: `offline`, `the network failed
    /// (timed out)`, `the server failed (HTTP 503)`; `nil` when fresh or not known (an
    /// expired copy from the memory layer).
    public var staleReason: String? = nil
}

/// What the memory layer holds for one image.
struct CachedImage: Sendable {
    var data: Data
    var info: ImageInfo
    var expiresAt: Date?
}
