import Foundation
import Synchronization

extension DiskCache {
    /// Adds this instance's hits and misses since the last call to the directory's lifetime
    /// counters, shared by every process using it (they are kept in the lock file). Call it
    /// when a process is done with the cache; ``statistics()`` reports lifetime totals.
    public func persistCounters() throws {
        let (hits, misses) = state.withLock { state in
            (state.hits - state.persistedHits, state.misses - state.persistedMisses)
        }
        guard hits != 0 || misses != 0 else { return }
        _ = try lock.addToLifetimeCounters(hits: hits, misses: misses)
        state.withLock { state in
            state.persistedHits += hits
            state.persistedMisses += misses
        }
    }
}
