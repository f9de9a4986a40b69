import Foundation
import Synchronization

extension DiskCache {
    /// Removes the entry for `key` under the lock; nothing happens if there is none or the
    /// disk refuses.
    public func removeEntry(forKey key: String) {
        removeEntryFile(named: CacheLayout.name(forKey: key), identity: nil)
    }

    /// Removes every entry of every process, under the lock. Temporary files of writes in
    /// progress are left to finish (or to be swept when stale).
    ///
    /// - Throws: ``DiskCacheError`` naming the first file that could not be removed.
    public func removeAll() throws {
        try lock.withExclusiveAccess { ledger in
            let listing = DirectoryListing(folders)
            var failure: SystemCallError?
            for file in listing.entries + listing.misplacedEntries where !file.folder.remove(file.name) {
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
    func removeCorruptEntry(named name: String, identity: FileIdentity) {
        if removeEntryFile(named: name, identity: identity) {
            state.withLock { $0.corruptEntriesRemoved += 1 }
        }
    }

    /// Unlinks the entry file `name` (in its fan-out folder, or in `folder` when given) under
    /// the lock and takes it off the ledger. Only a regular file is removed: never a link.
    ///
    /// With `identity`, unlinks only if the name still holds that file: a reader that
    /// found a corrupt file must not delete the valid entry another process renamed over
    /// it in the meantime (renames happen under the same lock, so the check is exact).
    @discardableResult
    func removeEntryFile(named name: String, in folder: DirectoryHandle? = nil, identity: FileIdentity?) -> Bool {
        let removed = try? lock.withExclusiveAccess { ledger -> Bool in
            guard let folder = try? folder ?? folders.fanOut(CacheLayout.folderName(forName: name)),
                  let status = folder.status(name), FileSystem.isRegularFile(status) else { return false }
            if let identity, FileIdentity(status) != identity { return false }
            guard unlinkat(folder.descriptor, name, 0) == 0 else { return false }
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
        let listing = DirectoryListing(folders)
        return SizeLedger(bytes: Int64(listing.entryBytes), entries: Int64(listing.entries.count))
    }
}
