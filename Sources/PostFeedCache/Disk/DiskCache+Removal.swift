import Foundation
import Synchronization

extension DiskCache {
    /// Removes the entry for `key` under the lock; nothing happens if there is none or the
    /// disk refuses.
    public func removeEntry(forKey key: String) {
        removeEntryFile(at: layout.entryPath(forKey: key), identity: nil)
    }

    /// Removes every entry of every process, under the lock. Temporary files of writes in
    /// progress are left to finish (or to be swept when stale).
    ///
    /// - Throws: ``DiskCacheError`` naming the first file that could not be removed.
    public func removeAll() throws {
        try lock.withExclusiveAccess { ledger in
            let listing = DirectoryListing(layout)
            var failure: SystemCallError?
            for file in listing.entries + listing.misplacedEntries where !FileSystem.remove(file.path) {
                failure = failure ?? SystemCallError(operation: "unlink", path: file.path, errno: errno)
            }
            // Whatever is in the way of entries goes too, or every later run would miss.
            for obstruction in listing.obstructions where !obstruction.remove() {
                failure = failure ?? SystemCallError(operation: "remove", path: obstruction.path, errno: errno)
            }
            ledger = failure == nil ? SizeLedger(bytes: 0, entries: 0) : recount()
            if let failure { throw DiskCacheError(failure) }
        }
    }

    /// Removes an entry that failed verification and counts it.
    func removeCorruptEntry(at path: String, identity: FileIdentity) {
        if removeEntryFile(at: path, identity: identity) {
            state.withLock { $0.corruptEntriesRemoved += 1 }
        }
    }

    /// Unlinks an entry file under the lock and takes it off the ledger.
    ///
    /// With `identity`, unlinks only if the path still names that file: a reader that
    /// found a corrupt file must not delete the valid entry another process renamed over
    /// it in the meantime (renames happen under the same lock, so the check is exact).
    @discardableResult
    func removeEntryFile(at path: String, identity: FileIdentity?) -> Bool {
        let removed = try? lock.withExclusiveAccess { ledger -> Bool in
            guard let status = FileSystem.status(path), FileSystem.isRegularFile(status) else { return false }
            if let identity, FileIdentity(status) != identity { return false }
            guard unlink(path) == 0 else { return false }
            if var current = ledger {
                current.bytes = max(0, current.bytes - Int64(status.st_size))
                current.entries = max(0, current.entries - 1)
                ledger = current
            }
            return true
        }
        return removed ?? false
    }

    /// The directory's real totals, from a listing. O(entries).
    func recount() -> SizeLedger {
        let listing = DirectoryListing(layout)
        return SizeLedger(bytes: Int64(listing.entryBytes), entries: Int64(listing.entries.count))
    }
}
