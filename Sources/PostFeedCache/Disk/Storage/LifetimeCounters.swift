import Foundation

/// Hit and miss counts over the life of a cache directory, summed over every process that
/// used it, so `postfeed cache stats` in a new process can report them. They live in the
/// lock file right after the size ledger and change only under the lock:
///
/// ```
/// 24 4  magic "PFHC"
/// 28 4  version 1 (UInt32, little-endian)
/// 32 8  hits (Int64, little-endian)
/// 40 8  misses (Int64, little-endian)
/// ```
///
/// Like the ledger they are a hint: a missing or foreign record counts from zero.
struct LifetimeCounters: Equatable {
    var hits: Int64
    var misses: Int64

    static let offset = SizeLedger.size
    static let size = LockFileRecord.size
    private static let magic: [UInt8] = Array("PFHC".utf8)

    func encoded() -> Data {
        LockFileRecord.encode(magic: Self.magic, hits, misses)
    }

    static func decode(_ data: Data) -> LifetimeCounters? {
        guard let (hits, misses) = LockFileRecord.decode(data, magic: magic) else { return nil }
        return LifetimeCounters(hits: hits, misses: misses)
    }
}

extension CacheLock {
    /// Adds `hits` and `misses` to the directory's lifetime counters; returns the new totals.
    func addToLifetimeCounters(hits: Int, misses: Int) throws -> LifetimeCounters {
        try withLockedFile { file in
            var counters = (try? file.read(count: LifetimeCounters.size, at: LifetimeCounters.offset))
                .flatMap(LifetimeCounters.decode) ?? LifetimeCounters(hits: 0, misses: 0)
            guard hits != 0 || misses != 0 else { return counters }
            counters.hits += Int64(hits)
            counters.misses += Int64(misses)
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
        guard let file = try? SystemFile.open(lockFile.path, flags: O_RDONLY),
              let data = try? file.read(count: LifetimeCounters.size, at: LifetimeCounters.offset)
        else { return LifetimeCounters(hits: 0, misses: 0) }
        return LifetimeCounters.decode(data) ?? LifetimeCounters(hits: 0, misses: 0)
    }
}
