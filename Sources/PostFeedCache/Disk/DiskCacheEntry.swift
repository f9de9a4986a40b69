import Foundation

/// An entry read back from a ``DataCaching`` cache: the bytes and their metadata, both
/// verified against the checksums stored with them.
public struct DiskCacheEntry: Sendable {
    /// The body, exactly as stored.
    public var data: Data
    /// The metadata, exactly as stored (with `expiresAt` filled in by the cache).
    public var metadata: CacheEntryMetadata

    /// Creates an entry, e.g. for a test double of ``DataCaching``.
    public init(data: Data, metadata: CacheEntryMetadata) {
        self.data = data
        self.metadata = metadata
    }

    /// Whether the entry is stale at `date` (`expiresAt` at or before it). A stale entry
    /// is still returned by the cache: the caller decides whether to revalidate it (with
    /// ``CacheEntryMetadata/etag``) or to use it offline.
    public func isExpired(at date: Date) -> Bool {
        guard let expiresAt = metadata.expiresAt else { return false }
        return expiresAt <= date
    }
}
