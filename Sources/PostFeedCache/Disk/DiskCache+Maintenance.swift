import Foundation
import Synchronization

extension DiskCache {
    /// What a trim did, and the recounted ledger.
    struct TrimOutcome {
        var ledger: SizeLedger
        var entriesRemoved = 0
        var bytesFreed = 0
        var temporaryFilesRemoved = 0
    }

    // MARK: Trim

    /// Must run holding the lock. Lists the directory, sweeps stale temporary files and
    /// removes the least recently used entries (oldest mtime first, then by name): until
    /// they fit under the low-water mark when they exceed the size limit, or, with
    /// `freeing`, until at least that many bytes are gone whatever the limit. `protecting`
    /// (the entry just written) is never removed.
    ///
    /// Readers are never blocked: they take no lock, and a reader that opened a file
    /// before its unlink keeps reading it intact.
    func trimLocked(protecting protected: String?, freeing required: Int = 0) -> TrimOutcome {
        let listing = DirectoryListing(folders)
        let now = configuration.now()
        let staleAge = configuration.staleTemporaryFileAge.timeInterval
        var outcome = TrimOutcome(ledger: SizeLedger(bytes: 0, entries: 0))
        for file in listing.temporaryFiles
        where now.timeIntervalSince(file.modified) > staleAge && file.removeIfUnchanged() {
            outcome.temporaryFilesRemoved += 1
        }
        var total = listing.entryBytes
        var count = listing.entries.count
        if required > 0 || total > configuration.sizeLimit {
            let target = required > 0 ? max(0, total - required) : configuration.lowWaterMark
            let byLastUse = listing.entries.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
            for victim in byLastUse {
                guard total > target else { break }
                guard victim.path != protected, victim.removeIfUnchanged() else { continue }
                total -= victim.size
                count -= 1
                outcome.entriesRemoved += 1
                outcome.bytesFreed += victim.size
            }
        }
        outcome.ledger = SizeLedger(bytes: Int64(total), entries: Int64(count))
        return outcome
    }

    // MARK: Statistics

    /// Counts the directory's entries and bytes, reads every entry's metadata for the
    /// oldest and newest `storedAt`, and adds the counters. The counters are lifetime
    /// totals: those persisted by every process (``persistCounters()``) plus this
    /// instance's since its last persist. O(entries) reads
    /// of metadata (bodies are not read); meant for `postfeed cache stats`, not hot paths.
    public func statistics() -> Statistics {
        let listing = DirectoryListing(folders)
        var oldest: Date?
        var newest: Date?
        for file in listing.entries {
            guard let handle = try? file.open(),
                  let metadata = try? EntryCodec.readMetadata(of: handle, expectedName: file.name)
            else { continue }
            oldest = min(oldest ?? metadata.storedAt, metadata.storedAt)
            newest = max(newest ?? metadata.storedAt, metadata.storedAt)
        }
        let persisted = lock.readLifetimeCounters()
        return state.withLock { state in
            let lifetime = persisted + state.unpersisted
            return Statistics(
                entryCount: listing.entries.count, totalBytes: listing.entryBytes,
                sizeLimit: configuration.sizeLimit,
                hits: Int(lifetime.hits), misses: Int(lifetime.misses),
                corruptEntriesRemoved: Int(lifetime.corruptEntriesRemoved), writes: Int(lifetime.writes),
                skippedWrites: Int(lifetime.skippedWrites), failedWrites: Int(lifetime.failedWrites),
                temporaryFiles: listing.temporaryFiles.count,
                oldestStoredAt: oldest, newestStoredAt: newest,
                isWritable: state.unwritableSince == nil
            )
        }
    }

    // MARK: Verify

    /// Reads every entry in full and checks footer, lengths, metadata, key and body
    /// checksum; removes each one that fails (and entry files sitting in the wrong
    /// fan-out folder) and reports it. Takes the lock only to remove, file by file.
    public func verify() -> VerificationReport {
        let listing = DirectoryListing(folders)
        var report = VerificationReport(checkedEntries: 0, validEntries: 0, validBytes: 0, problems: [])
        for file in listing.entries {
            report.checkedEntries += 1
            let reason: String
            if let handle = try? file.open(), let status = try? handle.status() {
                do {
                    _ = try EntryCodec.read(handle, size: Int(status.st_size), expectedName: file.name)
                    report.validEntries += 1
                    report.validBytes += Int(status.st_size)
                    continue
                } catch {
                    reason = error.description
                }
            } else {
                continue  // removed meanwhile: nothing to verify
            }
            let removed = removeEntryFile(named: file.name, in: file.folder, identity: file.identity)
            if removed { state.withLock { $0.corruptEntriesRemoved += 1 } }
            report.problems.append(.init(file: URL(fileURLWithPath: file.path), reason: reason, removed: removed))
        }
        for obstruction in listing.obstructions {
            report.checkedEntries += 1
            let removed = (try? lock.withExclusiveAccess { _ in obstruction.remove() }) ?? false
            report.problems.append(.init(file: URL(fileURLWithPath: obstruction.path), reason: obstruction.reason, removed: removed))
        }
        for file in listing.misplacedEntries {
            report.checkedEntries += 1
            let removed = removeEntryFile(named: file.name, in: file.folder, identity: file.identity)
            report.problems.append(.init(file: URL(fileURLWithPath: file.path),
                                         reason: "entry file in the wrong fan-out folder", removed: removed))
        }
        return report
    }

    // MARK: Prune

    /// Applies expiry and the size limit now: removes entries past `expiresAt` +
    /// ``Configuration/expiredEntryGracePeriod`` and entries whose metadata does not
    /// verify, sweeps stale temporary files, then trims to the low-water mark if the
    /// total is still above ``Configuration/sizeLimit``. Reads only metadata, not bodies.
    public func prune() -> PruneReport {
        let listing = DirectoryListing(folders)
        let now = configuration.now()
        let grace = configuration.expiredEntryGracePeriod.timeInterval
        var expired: [ListedFile] = []
        var corrupt: [ListedFile] = []
        for file in listing.entries {
            guard let handle = try? file.open() else { continue }
            do {
                let metadata = try EntryCodec.readMetadata(of: handle, expectedName: file.name)
                let expiresAt = metadata.expiresAt
                    ?? metadata.storedAt.addingTimeInterval(configuration.defaultTTL.timeInterval)
                if now.timeIntervalSince(expiresAt) > grace { expired.append(file) }
            } catch {
                corrupt.append(file)
            }
        }
        var report = PruneReport(expiredEntriesRemoved: 0, corruptEntriesRemoved: 0, obstructionsRemoved: 0, entriesEvictedForSize: 0,
                                 temporaryFilesRemoved: 0, bytesFreed: 0,
                                 remainingEntries: listing.entries.count, remainingBytes: listing.entryBytes)
        try? lock.withExclusiveAccess { ledger in
            // Each file is unlinked only if it is still the one judged above.
            func removeIfUnchanged(_ file: ListedFile) -> Bool {
                guard file.removeIfUnchanged() else { return false }
                report.bytesFreed += file.size
                return true
            }
            report.expiredEntriesRemoved = expired.filter(removeIfUnchanged).count
            report.corruptEntriesRemoved = corrupt.filter(removeIfUnchanged).count
            report.obstructionsRemoved = listing.obstructions.filter { $0.remove() }.count
            let trim = trimLocked(protecting: nil)
            report.entriesEvictedForSize = trim.entriesRemoved
            report.temporaryFilesRemoved = trim.temporaryFilesRemoved
            report.bytesFreed += trim.bytesFreed
            report.remainingEntries = Int(trim.ledger.entries)
            report.remainingBytes = Int(trim.ledger.bytes)
            ledger = trim.ledger
        }
        state.withLock { $0.corruptEntriesRemoved += report.corruptEntriesRemoved }
        return report
    }
}
