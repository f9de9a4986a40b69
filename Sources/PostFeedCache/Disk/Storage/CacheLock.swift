import Foundation

/// The running total of a cache directory's entry bytes, shared by every process that
/// uses the directory. It lives in the first 24 bytes of the lock file and is read and
/// written only while holding the lock:
///
/// ```
/// 0  4  magic "PFSL"
/// 4  4  version 1 (UInt32, little-endian)
/// 8  8  bytes held by entries (Int64, little-endian)
/// 16 8  number of entries (Int64, little-endian)
/// ```
///
/// It is a hint, not the truth: a process killed between a rename and the ledger update
/// leaves it short by one entry. Every trim rescans the directory and rewrites it, so the
/// error never outlives the next trim.
struct SizeLedger: Equatable {
    var bytes: Int64
    var entries: Int64

    static let size = 24
    private static let magic: [UInt8] = Array("PFSL".utf8)

    func encoded() -> Data {
        var data = Data(Self.magic)
        data.appendLittleEndian(UInt32(1))
        data.appendLittleEndian(UInt64(bitPattern: bytes))
        data.appendLittleEndian(UInt64(bitPattern: entries))
        return data
    }

    /// `nil` for a missing, short or foreign ledger: the caller recounts.
    static func decode(_ data: Data) -> SizeLedger? {
        let bytes = [UInt8](data)
        guard bytes.count >= size, Array(bytes[0..<4]) == magic,
              bytes.littleEndianInteger(UInt32.self, at: 4) == 1,
              let total = bytes.littleEndianInteger(UInt64.self, at: 8),
              let count = bytes.littleEndianInteger(UInt64.self, at: 16)
        else { return nil }
        let ledger = SizeLedger(bytes: Int64(bitPattern: total), entries: Int64(bitPattern: count))
        return ledger.bytes >= 0 && ledger.entries >= 0 ? ledger : nil
    }
}

/// Cross-process mutual exclusion for a cache directory: `flock(LOCK_EX)` on `.lock`.
///
/// Who takes it: every rename of an entry into place, every unlink of an entry, and
/// trims. Who does not: readers (a rename is atomic, so a reader sees the old file or the
/// new one, never half of either) and writers while they write their temporary file.
/// Holding it across "is this still the file I looked at?" and the unlink/rename that
/// follows is what keeps one process from deleting the fresh entry another just renamed
/// into place.
///
/// Each acquisition opens its own descriptor: `flock` locks belong to an open file
/// description, so threads of one process exclude each other exactly as processes do.
/// The kernel drops the lock when the descriptor closes, including when the holder is
/// killed — a crashed process never leaves the cache locked.
struct CacheLock: Sendable {
    let path: String

    /// Runs `body` holding the lock, with the ledger read from the lock file (`nil` when
    /// missing or unreadable). Changes `body` makes to the ledger are written back, also
    /// when it throws.
    func withExclusiveAccess<T>(_ body: (inout SizeLedger?) throws -> T) throws -> T {
        let file: SystemFile
        do throws(SystemCallError) {
            file = try SystemFile.open(path, flags: O_RDWR | O_CREAT)
            try file.lockExclusively()
        } catch {
            throw DiskCacheError(error)
        }
        let original = (try? file.read(count: SizeLedger.size, at: 0)).flatMap(SizeLedger.decode)
        var ledger = original
        defer {
            if ledger != original, let ledger {
                try? file.write(ledger.encoded(), at: 0)
            }
        }
        return try body(&ledger)
    }
}
