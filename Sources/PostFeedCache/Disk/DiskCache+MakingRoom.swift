import Foundation

extension DiskCache {
    /// Removes least recently used entries until at least `bytes` are freed or none are
    /// left, whatever the size limit: for a write more valuable than the cache (the reader's
    /// saved place) that found the disk full. Takes the lock once; stale temporary files
    /// are swept too (not counted: they may be writes in progress elsewhere).
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
            let listing = DirectoryListing(layout)
            let now = configuration.now()
            let staleAge = configuration.staleTemporaryFileAge.timeInterval
            for file in listing.temporaryFiles where now.timeIntervalSince(file.modified) > staleAge {
                FileSystem.remove(file.path)
            }
            var freed = 0
            var remaining = listing.entries.count
            let byLastUse = listing.entries.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
            for victim in byLastUse {
                guard freed < bytes else { break }
                guard unlink(victim.path) == 0 else { continue }
                freed += victim.size
                remaining -= 1
            }
            ledger = SizeLedger(bytes: Int64(listing.entryBytes - freed), entries: Int64(remaining))
            return freed
        }
        return freed ?? 0
    }
}
