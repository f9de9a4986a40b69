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

    static let size = LockFileRecord.size
    private static let magic: [UInt8] = Array("PFSL".utf8)

    func encoded() -> Data {
        LockFileRecord.encode(magic: Self.magic, bytes, entries)
    }

    /// `nil` for a missing, short or foreign ledger: the caller recounts.
    static func decode(_ data: Data) -> SizeLedger? {
        guard let (total, count) = LockFileRecord.decode(data, magic: magic) else { return nil }
        return SizeLedger(bytes: total, entries: count)
    }
}

/// A record in the lock file: 4-byte magic, version 1 (UInt32), then non-negative Int64
/// values, all little-endian. The size ledger and the lifetime counters use it.
enum LockFileRecord {
    /// A record of two values: 24 bytes.
    static let size = size(values: 2)

    /// The bytes a record of `count` values takes.
    static func size(values count: Int) -> Int { 8 + 8 * count }

    static func encode(magic: [UInt8], _ first: Int64, _ second: Int64) -> Data {
        encode(magic: magic, [first, second])
    }

    static func encode(magic: [UInt8], _ values: [Int64]) -> Data {
        var data = Data(magic)
        data.appendLittleEndian(UInt32(1))
        for value in values { data.appendLittleEndian(UInt64(bitPattern: value)) }
        return data
    }

    /// `nil` for a short, foreign, other-version or negative record.
    static func decode(_ data: Data, magic: [UInt8]) -> (Int64, Int64)? {
        guard let values = decode(data, magic: magic, count: 2) else { return nil }
        return (values[0], values[1])
    }

    /// The `count` values, or `nil` for a short, foreign, other-version or negative record.
    static func decode(_ data: Data, magic: [UInt8], count: Int) -> [Int64]? {
        let bytes = [UInt8](data)
        guard bytes.count >= size(values: count), Array(bytes[0..<4]) == magic,
              bytes.littleEndianInteger(UInt32.self, at: 4) == 1
        else { return nil }
        var values: [Int64] = []
        for index in 0..<count {
            guard let raw = bytes.littleEndianInteger(UInt64.self, at: 8 + 8 * index) else { return nil }
            let value = Int64(bitPattern: raw)
            guard value >= 0 else { return nil }
            values.append(value)
        }
        return values
    }
}

/// Cross-process mutual exclusion for a cache directory: an exclusive `flock` on `.lock`
/// (as ``LockFile`` takes it), which also holds the size ledger. `.lock` is opened by name
/// in the cache directory's handle, never through a link: a link there is refused, so
/// the ledger and the counters are never written over another file.
///
/// Who takes it: every rename of an entry into place, every unlink of an entry, and
/// trims. Who does not: readers (a rename is atomic, so a reader sees the old file or the
/// new one, never half of either) and writers while they write their temporary file.
/// Holding it across "is this still the file I looked at?" and the unlink/rename that
/// follows is what keeps one process from deleting the fresh entry another just renamed
/// into place.
struct CacheLock: Sendable {
    let folders: CacheFolders

    init(folders: CacheFolders) {
        self.folders = folders
    }

    /// The lock of the cache directory holding `path` (its `.lock`).
    init(path: String) {
        self.init(folders: CacheFolders(path: (path as NSString).deletingLastPathComponent))
    }

    /// Opens `.lock` (creating it with `O_CREAT`), blocking for the `flock` when `locking`.
    func open(flags: Int32 = O_RDWR | O_CREAT, locking: Bool = true) throws(SystemCallError) -> SystemFile {
        let directory = try folders.directory()
        let file = try directory.open(CacheLayout.lockName, flags: flags)
        if locking { try file.lockExclusively() }
        return file
    }

    /// Runs `body` holding the lock, with the ledger read from the lock file (`nil` when
    /// missing or unreadable). Changes `body` makes to the ledger are written back, also
    /// when it throws.
    func withExclusiveAccess<T>(_ body: (inout SizeLedger?) throws -> T) throws -> T {
        try withLockedFile { file in
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

    /// Runs `body` with the lock file open and locked; the lock drops when it returns.
    ///
    /// - Throws: ``DiskCacheError`` when the lock cannot be taken; what `body` throws.
    func withLockedFile<T>(_ body: (SystemFile) throws -> T) throws -> T {
        let file: SystemFile
        do throws(SystemCallError) {
            file = try open()
        } catch {
            throw DiskCacheError(error)
        }
        return try body(file)
    }
}
