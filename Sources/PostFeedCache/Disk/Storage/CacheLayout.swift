internal import CLibCrypto
import Foundation

/// Where a disk cache keeps each file.
///
/// ```
/// <directory>/
///   .lock                      flock target for commits and trims; holds the size ledger
///   .tmp/                      streamed downloads before `storeFile` adopts them
///   3f/                        fan-out folder: first two hex digits of the name
///     3f9a…c1                  an entry: SHA-256 hex of its key (64 characters)
///     .3f9a…c1.<pid>.<rand>.tmp   an entry being written (renamed into place when done)
/// ```
///
/// One level of 256 folders keeps each folder small (≈ 400 files at 100 000 entries)
/// without a second `mkdir` per entry; no index is consulted on lookup: the path follows
/// from the key.
///
/// The paths here are for messages and for callers that need one (the download folder);
/// the cache itself reaches every file by name through ``CacheFolders``, never by path.
package struct CacheLayout: Sendable {
    let directory: String

    init(directory: URL) {
        self.directory = directory.standardizedFileURL.path
    }

    static let lockName = ".lock"
    static let temporaryFolderName = ".tmp"

    var lockPath: String { directory + "/" + Self.lockName }
    var temporaryDirectory: String { directory + "/" + Self.temporaryFolderName }

    /// The entry's file name: SHA-256 of the key's UTF-8 bytes, lowercase hex.
    ///
    /// Spelled out with a digit table: every read computes it twice (the path, then the
    /// key check), and 32 `String(radix:)` joined were 6 % of a warm image replay's CPU
    /// (`postfeed-bench cache`).
    package static func name(forKey key: String) -> String {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &digest) { out in
            var key = key
            key.withUTF8 { bytes in
                _ = SHA256(bytes.baseAddress, bytes.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self))
            }
        }
        return withUnsafeBytes(of: &digest) { bytes in
            String(unsafeUninitializedCapacity: digestLength * 2) { buffer in
                var index = 0
                for byte in bytes {
                    buffer[index] = hexDigits[Int(byte >> 4)]
                    buffer[index + 1] = hexDigits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    /// SHA-256's 32 bytes.
    private static let digestLength = 32

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `3f`: the fan-out folder of the entry `name`.
    static func folderName(forName name: String) -> String {
        String(name.prefix(2))
    }

    func folder(forName name: String) -> String {
        directory + "/" + name.prefix(2)
    }

    func entryPath(forKey key: String) -> String {
        entryPath(forName: Self.name(forKey: key))
    }

    func entryPath(forName name: String) -> String {
        folder(forName: name) + "/" + name
    }

    /// A fresh temporary name next to the entry, unique across processes and threads.
    static func temporaryName(forName name: String) -> String {
        AtomicFile.temporaryName(for: name)
    }

    /// `3f`, a fan-out folder name.
    static func isFolderName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy(isLowercaseHexDigit)
    }

    /// 64 lowercase hex digits: an entry.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy(isLowercaseHexDigit)
    }

    /// A dot file ending in `.tmp`: a write in progress or left by a crash.
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
