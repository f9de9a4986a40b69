import Foundation
import PostFeedCache

extension CachedHTTPLoader {
    /// Looks `key` up in the shared tier (one `GET`, ``SharedDataCaching/lookup(forKey:notStoredBefore:)``),
    /// counting the lookup (hit or miss, its time) and what the tier counted meanwhile
    /// (failed commands). A hit is the layer that answers, unless it is expired and the
    /// origin is asked next.
    ///
    /// A miss here followed by another instance's value after a lease wait
    /// (``leaseShared(_:kind:in:notStoredBefore:maximumBytes:)``) counts one miss and one hit
    /// for the one load, in the metrics as in ``SharedDataCaching/Statistics``.
    ///
    /// Entries stored before `notStoredBefore` are misses; so is one larger than
    /// `maximumBytes` (the request's body limit, e.g. a backend's `maximumPageBytes`, which an
    /// instance configured otherwise may have stored).
    func lookUpShared(
        _ key: String, kind: LoadKind, in shared: any SharedDataCaching, notStoredBefore: Date?, maximumBytes: Int?
    ) async -> DiskCacheEntry? {
        let started = telemetry.metrics.now()
        var found = await shared.lookup(forKey: key, notStoredBefore: notStoredBefore)
        if let entry = found, let maximumBytes, entry.data.count > maximumBytes { found = nil }
        telemetry.metrics.lookedUp(kind, in: .shared, found: found != nil, started: started)
        countSharedTierGrowth(kind, in: shared)
        return found
    }

    /// After a miss (``lookUpShared(_:kind:in:notStoredBefore:maximumBytes:)``): takes the
    /// fetch lease, or waits on another instance's
    /// (``SharedDataCaching/entryOrLease(forKey:notStoredBefore:afterMiss:)``). A value found then
    /// counts as a hit of the shared layer (the lookup's time was counted with the miss),
    /// and its lease wait: such a load counts one miss (its first look) and one hit. A value over `maximumBytes` is fetched from the origin, without a lease.
    func leaseShared(
        _ key: String, kind: LoadKind, in shared: any SharedDataCaching, notStoredBefore: Date?, maximumBytes: Int?
    ) async -> SharedCacheLookup {
        var result = await shared.entryOrLease(forKey: key, notStoredBefore: notStoredBefore, afterMiss: true)
        if case .hit(let entry) = result {
            if let maximumBytes, entry.data.count > maximumBytes {
                result = .fetch
            } else {
                LoadRecorder.current?.record { $0.layer = .shared }
                telemetry.metrics.foundAfterWaiting(kind, in: .shared)
            }
        }
        countSharedTierGrowth(kind, in: shared)
        return result
    }

    private func countSharedTierGrowth(_ kind: LoadKind, in shared: any SharedDataCaching) {
        let growth = telemetry.sharedLedger.growth(of: shared)
        telemetry.metrics.sharedTier(kind, leaseWaits: growth.leaseWaits, failures: growth.failures)
    }
}
