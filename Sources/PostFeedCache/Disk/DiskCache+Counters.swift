import Foundation
import Synchronization

extension DiskCache {
    /// Adds this instance's counts since the last call — hits, misses, writes (also
    /// failed and skipped ones) and corrupt entries removed — to the directory's lifetime
    /// counters, shared by every process using it (they are kept in the lock file). Call it
    /// when a process is done with the cache; ``statistics()`` reports lifetime totals.
    public func persistCounters() throws {
        let counts = state.withLock { $0.unpersisted }
        guard !counts.isZero else { return }
        _ = try lock.addToLifetimeCounters(counts)
        state.withLock { $0.persisted = $0.persisted + counts }
    }
}
