/// A snapshot of a ``MemoryCache``'s counters, taken under its lock.
public struct MemoryCacheStatistics: Sendable, Equatable, CustomStringConvertible {
    /// Reads that returned a value.
    public var hits: Int
    /// Reads that returned `nil`, expired entries included.
    public var misses: Int
    /// Entries dropped to respect ``MemoryCache/countLimit`` or ``MemoryCache/totalCostLimit``.
    public var evictions: Int
    /// Entries dropped because their TTL had passed.
    public var expirations: Int
    /// Values refused because their cost exceeded the per-entry cap.
    public var rejections: Int
    /// Entries held when the snapshot was taken.
    public var count: Int
    /// Total cost held when the snapshot was taken.
    public var totalCost: Int

    /// Hits divided by reads, or `0` before the first read.
    public var hitRatio: Double {
        let reads = hits + misses
        return reads == 0 ? 0 : Double(hits) / Double(reads)
    }

    /// A one-line summary for logs.
    public var description: String {
        "\(count) entries, cost \(totalCost); \(hits) hits, \(misses) misses, "
            + "\(evictions) evictions, \(expirations) expirations, \(rejections) rejections"
    }
}
