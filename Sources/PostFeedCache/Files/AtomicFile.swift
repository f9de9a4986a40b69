import Foundation

/// A file that is only ever replaced whole: a reader, in this process or another, sees the
/// old bytes or the new ones, never a mix, and a process killed at any instant leaves one
/// or the other.
///
/// A write goes to a temporary file in the same folder (a rename across file systems would
/// not be atomic), is `fsync`ed, then renamed over the file. The disk cache writes its
/// entries this way (renaming under its lock); the list state store its JSON files.
///
/// ```swift
/// let file = AtomicFile(path: folder.appendingPathComponent("state.json").path)
/// try LockFile(path: folder.appendingPathComponent(".lock").path).withExclusiveLock {
///     try file.write(Data(json.utf8))
/// }
/// switch try file.read(maximumBytes: 1 << 20) {
/// case .data(let bytes): use(bytes)
/// case .tooLarge(let size): print("\(size) bytes: not ours")
/// }
/// ```
///
/// Errors are ``SystemCallError``s naming the call and the file.
public struct AtomicFile: Sendable {
    /// The file's path.
    public let path: String

    /// The file at `path`; nothing is opened until it is read or written.
    public init(path: String) {
        self.path = path
    }

    /// What ``read(maximumBytes:)`` found.
    public enum Contents: Sendable, Equatable {
        /// The whole file.
        case data(Data)
        /// The file holds more than the limit: at least this many bytes.
        case tooLarge(byteCount: Int)
    }

    /// A fresh name beside the file, unique across processes and threads:
    /// `.<name>.<pid>.<random>.tmp`.
    public func temporaryPath() -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + "." + name + "." + String(getpid()) + "."
            + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
    }

    /// Replaces the file with `data`: writes it to `temporaryPath` (by default
    /// ``temporaryPath()``), `fsync`s and closes it, renames it over the file and, with
    /// `syncingFolder`, `fsync`s the folder so the rename itself survives a power cut. The
    /// temporary file is removed on failure.
    ///
    /// - Throws: ``SystemCallError`` for `open` (the temporary file), `write`, `fsync`,
    ///   `close` or `rename` (naming the file itself).
    public func write(_ data: Data, temporaryPath: String? = nil, syncingFolder: Bool = true) throws(SystemCallError) {
        let temporaryPath = temporaryPath ?? self.temporaryPath()
        try Self.writeSynced(at: temporaryPath) { file throws(SystemCallError) in
            try file.write(data, at: 0)
        }
        do throws(SystemCallError) {
            try FileSystem.rename(temporaryPath, to: path)
        } catch {
            FileSystem.remove(temporaryPath)
            throw error
        }
        if syncingFolder { Self.syncFolder(of: path) }
    }

    /// The whole file when it holds at most `maximumBytes` (checked before and while
    /// reading, as the file may grow meanwhile).
    ///
    /// - Throws: ``SystemCallError``: `open` with `ENOENT` when there is no file (`ENOTDIR`
    ///   when a file stands where a folder of the path should be), `read` with `EISDIR` for
    ///   a folder and `EINVAL` for anything else that is not a regular file.
    public func read(maximumBytes: Int) throws(SystemCallError) -> Contents {
        let file = try SystemFile.open(path, flags: O_RDONLY)
        let status = try file.status()
        guard FileSystem.isRegularFile(status) else {
            let code = FileSystem.isDirectory(status) ? EISDIR : EINVAL
            throw SystemCallError(operation: "read", path: path, errno: code)
        }
        let size = Int(status.st_size)
        guard size <= maximumBytes else { return .tooLarge(byteCount: size) }
        let data = try file.readToEnd(limit: maximumBytes)
        return data.count > maximumBytes ? .tooLarge(byteCount: data.count) : .data(data)
    }

    // MARK: Steps the disk cache shares

    /// The first half of an atomic write: creates `temporaryPath` (which must not exist),
    /// lets `fill` write it, then `fsync`s (unless `synchronizing` is off) and closes it. The caller renames it into place
    /// (``write(_:temporaryPath:syncingFolder:)`` at once; the disk cache under its lock,
    /// after checking the entry). The file is removed on failure.
    static func writeSynced(
        at temporaryPath: String, synchronizing: Bool = true, _ fill: (SystemFile) throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        do throws(SystemCallError) {
            let file = try SystemFile.open(temporaryPath, flags: O_WRONLY | O_CREAT | O_EXCL)
            try fill(file)
            if synchronizing { try file.synchronize() }
            try file.close()
        } catch {
            FileSystem.remove(temporaryPath)
            throw error
        }
    }

    /// Syncs the folder holding `path`, so a rename in it is durable. Some file systems
    /// refuse to sync a folder; the rename is done either way.
    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        guard let directory = try? SystemFile.open(folder.isEmpty ? "." : folder, flags: O_RDONLY) else { return }
        try? directory.synchronize()
    }
}
