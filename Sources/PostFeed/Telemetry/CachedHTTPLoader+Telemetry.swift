import Foundation
import PostFeedCache

extension CachedHTTPLoader {
    /// Looks `key` up in the shared tier (``RedisCache/entryOrLease(forKey:)``), counting
    /// the lookup (hit or miss, its time) and what the tier counted meanwhile: lease waits
    /// and failed commands. A hit is the layer that answers, unless it is expired and the
    /// origin is asked next.
    ///
    /// Entries stored before `notStoredBefore` are misses (see
    /// ``RedisCache/entryOrLease(forKey:notStoredBefore:)``); so is one larger than
    /// `maximumBytes` (the request's body limit, e.g. a backend's `maximumPageBytes`, which an
    /// instance configured otherwise may have stored), fetched from the origin without a lease.
    func lookUpShared(
        _ key: String, kind: LoadKind, in shared: RedisCache, notStoredBefore: Date? = nil, maximumBytes: Int? = nil
    ) async -> RedisCache.LookupResult {
        let started = telemetry.metrics.now()
        var result = await shared.entryOrLease(forKey: key, notStoredBefore: notStoredBefore)
        if case .hit(let entry) = result, let maximumBytes, entry.data.count > maximumBytes { result = .fetch }
        var found = false
        if case .hit = result {
            found = true
            LoadRecorder.current?.record { $0.layer = .shared }
        }
        telemetry.metrics.lookedUp(kind, in: .shared, found: found, started: started)
        let growth = telemetry.sharedLedger.growth(of: shared)
        telemetry.metrics.sharedTier(kind, leaseWaits: growth.leaseWaits, failures: growth.failures)
        return result
    }
}
