import Foundation

extension DiskCache {
    /// Removes least recently used entries until at least `bytes` are freed or none are
    /// left, whatever the size limit: for a write more valuable than the cache (the reader's
    /// saved place) that found the disk full. Takes the lock once; stale temporary files
    /// are swept too, as by every trim (not counted in the bytes returned).
    ///
    /// ```swift
    /// // a state write failed with ENOSPC: make room and try once more
    /// if imageCache.evictLeastRecentlyUsed(freeing: needed) > 0 { try write() }
    /// ```
    ///
    /// - Returns: the bytes of the entry files removed (0 when the lock cannot be taken).
    @discardableResult
    public func evictLeastRecentlyUsed(freeing bytes: Int) -> Int {
        guard bytes > 0 else { return 0 }
        let freed = try? lock.withExclusiveAccess { ledger -> Int in
            let trim = trimLocked(protecting: nil, freeing: bytes)
            ledger = trim.ledger
            return trim.bytesFreed
        }
        return freed ?? 0
    }
}
