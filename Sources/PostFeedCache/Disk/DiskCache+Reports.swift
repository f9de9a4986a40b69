import Foundation

extension DiskCache {
    /// What ``DiskCache/statistics()`` found. Entry counts and bytes describe the whole
    /// directory now; the counters (hits to failed writes) are lifetime totals of every
    /// process that used it and called ``DiskCache/persistCounters()``, plus this instance's.
    public struct Statistics: Sendable, Equatable {
        /// Valid-looking entry files in the directory.
        public var entryCount: Int
        /// Bytes those files take (body, metadata and footer).
        public var totalBytes: Int
        /// The configured ``Configuration/sizeLimit``.
        public var sizeLimit: Int
        /// Reads that returned an entry.
        public var hits: Int
        /// Reads that found nothing or a corrupt entry.
        public var misses: Int
        /// Entries found corrupt (by reads, updates or ``DiskCache/verify()``) and removed.
        public var corruptEntriesRemoved: Int
        /// Entries written (stores, adopted files and metadata updates).
        public var writes: Int
        /// Writes skipped without trying because the disk had refused the previous one.
        public var skippedWrites: Int
        /// Writes the disk refused.
        public var failedWrites: Int
        /// Temporary files present (writes in progress or crash leftovers).
        public var temporaryFiles: Int
        /// The earliest `storedAt` among entries whose metadata reads back.
        public var oldestStoredAt: Date?
        /// The latest `storedAt` among entries whose metadata reads back.
        public var newestStoredAt: Date?
        /// Whether writes currently reach the disk.
        public var isWritable: Bool
    }

    /// What ``DiskCache/verify()`` checked and removed.
    public struct VerificationReport: Sendable, Equatable {
        /// One entry file that failed verification.
        public struct Problem: Sendable, Equatable, CustomStringConvertible {
            /// The entry file.
            public var file: URL
            /// Why it cannot be trusted, e.g. "body checksum mismatch".
            public var reason: String
            /// Whether it was removed (`false` when the disk refused the unlink, or a
            /// writer replaced it meanwhile).
            public var removed: Bool

            /// `<path>: <reason> (removed)`.
            public var description: String {
                "\(file.path): \(reason)\(removed ? " (removed)" : " (could not remove)")"
            }
        }

        /// Entry files read and checked.
        public var checkedEntries: Int
        /// Entry files whose footer, metadata, key and body checksum all hold.
        public var validEntries: Int
        /// Bytes of the valid entry files.
        public var validBytes: Int
        /// The files that failed, with reasons.
        public var problems: [Problem]

        /// `true` when every entry verified.
        public var isClean: Bool { problems.isEmpty }
    }

    /// What ``DiskCache/prune()`` removed and what remains.
    public struct PruneReport: Sendable, Equatable {
        /// Entries past `expiresAt` + ``Configuration/expiredEntryGracePeriod``.
        public var expiredEntriesRemoved: Int
        /// Entries whose metadata did not verify.
        public var corruptEntriesRemoved: Int
        /// Things in the way of entries: a directory where an entry file belongs, a file
        /// where a fan-out folder or the temporary folder belongs.
        public var obstructionsRemoved: Int
        /// Least recently used entries removed to bring the total to the low-water mark.
        public var entriesEvictedForSize: Int
        /// Crashed writers' temporary files older than ``Configuration/staleTemporaryFileAge``.
        public var temporaryFilesRemoved: Int
        /// Bytes freed by removing entries.
        public var bytesFreed: Int
        /// Entries left.
        public var remainingEntries: Int
        /// Bytes left.
        public var remainingBytes: Int
    }
}
