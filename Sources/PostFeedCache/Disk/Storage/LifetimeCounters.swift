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
    static let size = 24
    private static let magic: [UInt8] = Array("PFHC".utf8)

    func encoded() -> Data {
        var data = Data(Self.magic)
        data.appendLittleEndian(UInt32(1))
        data.appendLittleEndian(UInt64(bitPattern: hits))
        data.appendLittleEndian(UInt64(bitPattern: misses))
        return data
    }

    static func decode(_ data: Data) -> LifetimeCounters? {
        let bytes = [UInt8](data)
        guard bytes.count >= size, Array(bytes[0..<4]) == magic,
              bytes.littleEndianInteger(UInt32.self, at: 4) == 1,
              let hits = bytes.littleEndianInteger(UInt64.self, at: 8),
              let misses = bytes.littleEndianInteger(UInt64.self, at: 16)
        else { return nil }
        let counters = LifetimeCounters(hits: Int64(bitPattern: hits), misses: Int64(bitPattern: misses))
        return counters.hits >= 0 && counters.misses >= 0 ? counters : nil
    }
}

extension CacheLock {
    /// Adds `hits` and `misses` to the directory's lifetime counters; returns the new totals.
    func addToLifetimeCounters(hits: Int, misses: Int) throws -> LifetimeCounters {
        let file: SystemFile
        do throws(SystemCallError) {
            file = try SystemFile.open(path, flags: O_RDWR | O_CREAT)
            try file.lockExclusively()
        } catch {
            throw DiskCacheError(error)
        }
        var counters = (try? file.read(count: LifetimeCounters.size, at: LifetimeCounters.offset))
            .flatMap(LifetimeCounters.decode) ?? LifetimeCounters(hits: 0, misses: 0)
        guard hits != 0 || misses != 0 else { return counters }
        counters.hits += Int64(hits)
        counters.misses += Int64(misses)
        do throws(SystemCallError) {
            // Keep the ledger's bytes in place: a lock file shorter than the ledger gets zeros,
            // which decode as "no ledger" and make the next trim recount.
            if (try? file.status().st_size).map({ $0 < Int64(SizeLedger.size) }) ?? true {
                try file.write(Data(count: SizeLedger.size), at: 0)
            }
            try file.write(counters.encoded(), at: LifetimeCounters.offset)
        } catch {
            throw DiskCacheError(error)
        }
        return counters
    }

    /// The lifetime counters as last persisted (read without the lock: a snapshot for reports).
    func readLifetimeCounters() -> LifetimeCounters {
        guard let file = try? SystemFile.open(path, flags: O_RDONLY),
              let data = try? file.read(count: LifetimeCounters.size, at: LifetimeCounters.offset)
        else { return LifetimeCounters(hits: 0, misses: 0) }
        return LifetimeCounters.decode(data) ?? LifetimeCounters(hits: 0, misses: 0)
    }
}
