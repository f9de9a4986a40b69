import PostFeedCache

extension CachedHTTPLoader {
    /// Looks `key` up in the shared tier (``RedisCache/entryOrLease(forKey:)``), counting
    /// the lookup (hit or miss, its time) and what the tier counted meanwhile: lease waits
    /// and failed commands. A hit is the layer that answers, unless it is expired and the
    /// origin is asked next.
    func lookUpShared(_ key: String, kind: LoadKind, in shared: RedisCache) async -> RedisCache.LookupResult {
        let started = telemetry.metrics.now()
        let result = await shared.entryOrLease(forKey: key)
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
