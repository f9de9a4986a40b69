import Foundation

/// Which file a path pointed to when it was opened or listed. Two identities are equal
/// only for the very same file, so "unlink only if it is still the file I read" is exact.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// An open file descriptor that closes itself. Thin, throwing wrappers over the POSIX
/// calls the disk cache, ``AtomicFile`` and ``LockFile`` need (Foundation's `FileHandle`
/// has no `fsync`-then-rename, `flock` or `futimens`). Files are opened by name through a
/// ``DirectoryHandle``, never by path, so no link is followed.
final class SystemFile {
    private(set) var descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Takes ownership of an open `descriptor` (``DirectoryHandle`` opens files by name).
    convenience init(adopting descriptor: Int32, path: String) {
        self.init(descriptor: descriptor, path: path)
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    /// Hands the open descriptor to the caller, who closes it; afterwards the file must not
    /// be used.
    func releaseDescriptor() -> Int32 {
        let descriptor = self.descriptor
        self.descriptor = -1
        return descriptor
    }

    /// Closes the descriptor now, reporting what `close` says (a deferred write error on
    /// some file systems); afterwards the file must not be used.
    func close() throws(SystemCallError) {
        let descriptor = self.descriptor
        self.descriptor = -1
        guard Glibc.close(descriptor) == 0 else {
            throw SystemCallError(operation: "close", path: path, errno: errno)
        }
    }


    func status() throws(SystemCallError) -> stat {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SystemCallError(operation: "fstat", path: path, errno: errno)
        }
        return status
    }

    /// Reads exactly `count` bytes at `offset`; fewer means the file shrank underneath.
    ///
    /// Reads into an uninitialized buffer the returned `Data` then owns: `Data(count:)`
    /// would zero every byte first, only for `pread` to overwrite them.
    func read(count: Int, at offset: Int) throws(SystemCallError) -> Data {
        guard count > 0 else { return Data() }
        let base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        var done = 0
        var failure: Int32 = 0
        while done < count {
            let result = pread(descriptor, base + done, count - done, off_t(offset + done))
            if result > 0 { done += result; continue }
            if result == 0 { failure = EIO; break }  // end of file before `count`
            if errno != EINTR { failure = errno; break }
        }
        guard failure == 0 else {
            base.deallocate()
            throw SystemCallError(operation: "read", path: path, errno: failure)
        }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// Reads from `offset` to the end of the file, stopping once more than `limit` bytes
    /// have been read (the file may grow while it is read).
    func readToEnd(from offset: Int = 0, limit: Int) throws(SystemCallError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress, bytes.count, off_t(offset + data.count))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(operation: "read", path: path, errno: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Writes all of `data` at `offset`.
    func write(_ data: Data, at offset: Int) throws(SystemCallError) {
        var done = 0
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while done < buffer.count {
                let result = pwrite(descriptor, base + done, buffer.count - done, off_t(offset + done))
                if result > 0 { done += result; continue }
                if result == 0 { failure = EIO; return }
                if errno != EINTR { failure = errno; return }
            }
        }
        if failure != 0 { throw SystemCallError(operation: "write", path: path, errno: failure) }
    }

    /// Flushes data and metadata to the device, so a rename after it never exposes a
    /// file whose blocks are not on disk yet.
    func synchronize() throws(SystemCallError) {
        guard fsync(descriptor) == 0 else {
            throw SystemCallError(operation: "fsync", path: path, errno: errno)
        }
    }

    /// Sets access and modification time; the disk cache uses mtime as "last used".
    func setModificationTime(_ date: Date) throws(SystemCallError) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let nanoseconds = (date.timeIntervalSince1970 - seconds) * 1e9
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        let times = [time, time]
        guard futimens(descriptor, times) == 0 else {
            throw SystemCallError(operation: "futimens", path: path, errno: errno)
        }
    }

    /// Blocks until this open file holds an exclusive `flock`. Released by `close`.
    func lockExclusively() throws(SystemCallError) {
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemCallError(operation: "flock", path: path, errno: errno) }
        }
    }
}

/// What a `stat` says.
enum FileSystem {
    /// `lstat` of a path (never following a final link), or `nil` when there is nothing.
    static func status(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }
    static func isRegularFile(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFREG }
    static func isSymbolicLink(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFLNK }

    static func modificationDate(_ status: stat) -> Date {
        Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)
            + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
    }
}
