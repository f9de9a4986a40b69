import Foundation

/// The counters of ``DiskCache/Statistics`` over the life of a cache directory, summed over
/// every process that used it, so `postfeed cache stats` in a new process can report them.
/// They live in the lock file right after the size ledger, as two records, and change only
/// under the lock:
///
/// ```
/// 24 4  magic "PFHC"
/// 28 4  version 1 (UInt32, little-endian)
/// 32 8  hits (Int64, little-endian)
/// 40 8  misses
/// 48 4  magic "PFWC"
/// 52 4  version 1
/// 56 8  writes
/// 64 8  failed writes
/// 72 8  skipped writes
/// 80 8  corrupt entries removed
/// ```
///
/// Like the ledger they are a hint: a missing or foreign record counts from zero (a lock
/// file from before writes were counted has only the first).
struct LifetimeCounters: Equatable {
    var hits: Int64 = 0
    var misses: Int64 = 0
    var writes: Int64 = 0
    var failedWrites: Int64 = 0
    var skippedWrites: Int64 = 0
    var corruptEntriesRemoved: Int64 = 0

    static let offset = SizeLedger.size
    private static let readsSize = LockFileRecord.size(values: 2)
    private static let writesSize = LockFileRecord.size(values: 4)
    static let size = readsSize + writesSize
    private static let readsMagic: [UInt8] = Array("PFHC".utf8)
    private static let writesMagic: [UInt8] = Array("PFWC".utf8)

    var isZero: Bool { self == LifetimeCounters() }

    func encoded() -> Data {
        LockFileRecord.encode(magic: Self.readsMagic, [hits, misses])
            + LockFileRecord.encode(magic: Self.writesMagic, [writes, failedWrites, skippedWrites, corruptEntriesRemoved])
    }

    /// The counters in `data` (the lock file from ``offset`` on); `nil` when neither record
    /// is there.
    static func decode(_ data: Data) -> LifetimeCounters? {
        let bytes = Data(data)  // indices from 0
        let reads = LockFileRecord.decode(bytes.prefix(readsSize), magic: readsMagic, count: 2)
        let writes = bytes.count > readsSize
            ? LockFileRecord.decode(bytes.dropFirst(readsSize), magic: writesMagic, count: 4) : nil
        guard reads != nil || writes != nil else { return nil }
        var counters = LifetimeCounters()
        if let reads { (counters.hits, counters.misses) = (reads[0], reads[1]) }
        if let writes {
            counters.writes = writes[0]
            counters.failedWrites = writes[1]
            counters.skippedWrites = writes[2]
            counters.corruptEntriesRemoved = writes[3]
        }
        return counters
    }

    /// The counters in the lock file `file`, each record read on its own: a file from
    /// before writes were counted ends after the first.
    static func read(from file: SystemFile) -> LifetimeCounters {
        let reads = (try? file.read(count: readsSize, at: offset)) ?? Data()
        let writes = (try? file.read(count: writesSize, at: offset + readsSize)) ?? Data()
        return decode(reads + writes) ?? LifetimeCounters()
    }

    static func + (lhs: LifetimeCounters, rhs: LifetimeCounters) -> LifetimeCounters {
        LifetimeCounters(
            hits: lhs.hits + rhs.hits, misses: lhs.misses + rhs.misses, writes: lhs.writes + rhs.writes,
            failedWrites: lhs.failedWrites + rhs.failedWrites, skippedWrites: lhs.skippedWrites + rhs.skippedWrites,
            corruptEntriesRemoved: lhs.corruptEntriesRemoved + rhs.corruptEntriesRemoved)
    }

    static func - (lhs: LifetimeCounters, rhs: LifetimeCounters) -> LifetimeCounters {
        LifetimeCounters(
            hits: lhs.hits - rhs.hits, misses: lhs.misses - rhs.misses, writes: lhs.writes - rhs.writes,
            failedWrites: lhs.failedWrites - rhs.failedWrites, skippedWrites: lhs.skippedWrites - rhs.skippedWrites,
            corruptEntriesRemoved: lhs.corruptEntriesRemoved - rhs.corruptEntriesRemoved)
    }
}

extension CacheLock {
    /// Adds `counts` to the directory's lifetime counters; returns the new totals.
    func addToLifetimeCounters(_ counts: LifetimeCounters) throws -> LifetimeCounters {
        try withLockedFile { file in
            var counters = LifetimeCounters.read(from: file)
            guard !counts.isZero else { return counters }
            counters = counters + counts
            do throws(SystemCallError) {
                // Keep the ledger's bytes in place: a lock file shorter than the ledger gets
                // zeros, which decode as "no ledger" and make the next trim recount.
                if (try? file.status().st_size).map({ $0 < Int64(SizeLedger.size) }) ?? true {
                    try file.write(Data(count: SizeLedger.size), at: 0)
                }
                try file.write(counters.encoded(), at: LifetimeCounters.offset)
            } catch {
                throw DiskCacheError(error)
            }
            return counters
        }
    }

    /// The lifetime counters as last persisted (read without the lock: a snapshot for reports).
    func readLifetimeCounters() -> LifetimeCounters {
        guard let file = try? open(flags: O_RDONLY, locking: false) else { return LifetimeCounters() }
        return LifetimeCounters.read(from: file)
    }
}
