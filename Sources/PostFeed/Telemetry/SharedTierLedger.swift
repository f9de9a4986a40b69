import PostFeedCache
import Synchronization

/// Turns a shared tier's lifetime ``SharedDataCaching/Statistics`` into metric increments: what
/// grew since the last look. The tier counts its lease waits and failures itself (inside
/// ``SharedDataCaching/entryOrLease(forKey:notStoredBefore:afterMiss:)`` and its writes); reading the growth keeps the
/// metrics out of the tier's code. Each counter only grows, so concurrent looks never
/// count one event twice or lose one (the larger snapshot wins).
final class SharedTierLedger: Sendable {
    private let seen = Mutex<[ObjectIdentifier: SharedCacheStatistics]>([:])

    /// Lease waits and failures of `shared` since the last call.
    func growth(of shared: any SharedDataCaching) -> (leaseWaits: Int, failures: [LoadMetrics.SharedFailure: Int]) {
        let now = shared.statistics()
        return seen.withLock { seen in
            let before = seen[ObjectIdentifier(shared)] ?? SharedCacheStatistics()
            var latest = before
            func grown(_ path: WritableKeyPath<SharedCacheStatistics, Int>) -> Int {
                let added = max(0, now[keyPath: path] - before[keyPath: path])
                latest[keyPath: path] = max(before[keyPath: path], now[keyPath: path])
                return added
            }
            let leaseWaits = grown(\.leaseWaits)
            let failures: [LoadMetrics.SharedFailure: Int] = [
                .unavailable: grown(\.unavailable), .full: grown(\.full), .error: grown(\.errors),
            ]
            seen[ObjectIdentifier(shared)] = latest
            return (leaseWaits, failures)
        }
    }
}
