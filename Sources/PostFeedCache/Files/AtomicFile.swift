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
/// **Links.** The folder is the caller's: opened by path (``init(path:)``), following
/// links, or handed over as a ``DirectoryHandle`` (``init(name:in:)``). The file, its
/// temporary file and the rename are reached by name relative to the folder, never
/// following a link: a link at the file is refused (``SystemCallError/isSymbolicLink``),
/// not read, written through or replaced.
///
/// Errors are ``SystemCallError``s naming the call and the file.
public struct AtomicFile: Sendable {
    /// The file's path.
    public let path: String
    /// The file's name in its folder.
    public let name: String
    /// The folder's path (`.` for a bare name).
    let folderPath: String
    /// The folder, when the caller holds it open; else opened from `folderPath` per call.
    let folder: DirectoryHandle?

    /// The file at `path`; nothing is opened until it is read or written. The folder part
    /// of the path is followed as given; the file itself never is.
    public init(path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        self.path = path
        self.name = (path as NSString).lastPathComponent
        self.folderPath = folder.isEmpty ? "." : folder
        self.folder = nil
    }

    /// The file `name` in `folder`, reached relative to it.
    public init(name: String, in folder: DirectoryHandle) {
        self.path = folder.child(name)
        self.name = name
        self.folderPath = folder.path
        self.folder = folder
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
        return (folder.isEmpty ? "" : folder + "/") + Self.temporaryName(for: name)
    }

    /// `.<name>.<pid>.<random>.tmp`.
    static func temporaryName(for name: String) -> String {
        "." + name + "." + String(getpid()) + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
    }

    /// Replaces the file with `data`: writes it to `temporaryPath` (by default
    /// ``temporaryPath()``; a name in the same folder), `fsync`s and closes it, renames it
    /// over the file and, with `syncingFolder`, `fsync`s the folder so the rename itself
    /// survives a power cut. The temporary file is removed on failure.
    ///
    /// - Throws: ``SystemCallError`` for `open` (the temporary file), `write`, `fsync`,
    ///   `close` or `rename` (naming the file itself); ``SystemCallError/isSymbolicLink``
    ///   when the file is a symbolic link (it is not replaced).
    public func write(_ data: Data, temporaryPath: String? = nil, syncingFolder: Bool = true) throws(SystemCallError) {
        let temporaryName = temporaryPath.map { ($0 as NSString).lastPathComponent } ?? Self.temporaryName(for: name)
        let folder = try openFolder(naming: temporaryPath ?? (folderPath + "/" + temporaryName))
        if let existing = folder.status(name), FileSystem.isSymbolicLink(existing) {
            throw .symbolicLink(path, operation: "rename")
        }
        try Self.writeSynced(named: temporaryName, in: folder) { file throws(SystemCallError) in
            try file.write(data, at: 0)
        }
        do throws(SystemCallError) {
            try folder.rename(temporaryName, to: name, in: folder)
        } catch {
            folder.remove(temporaryName)
            throw error
        }
        if syncingFolder { folder.synchronize() }
    }

    /// The whole file when it holds at most `maximumBytes` (checked before and while
    /// reading, as the file may grow meanwhile).
    ///
    /// - Throws: ``SystemCallError``: `open` with `ENOENT` when there is no file (`ENOTDIR`
    ///   when a file stands where a folder of the path should be), `read` with `EISDIR` for
    ///   a folder and `EINVAL` for anything else that is not a regular file;
    ///   ``SystemCallError/isSymbolicLink`` for a link.
    public func read(maximumBytes: Int) throws(SystemCallError) -> Contents {
        let file = try openFolder(naming: path).open(name, flags: O_RDONLY)
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

    /// The folder: the handle given, or opened from its path; a failure names `subject`.
    private func openFolder(naming subject: String) throws(SystemCallError) -> DirectoryHandle {
        if let folder { return folder }
        do throws(SystemCallError) {
            return try DirectoryHandle.openNamed(folderPath, creating: false)
        } catch {
            throw SystemCallError(operation: "open", path: subject, errno: error.errno)
        }
    }

    // MARK: Steps the disk cache shares

    /// The first half of an atomic write: creates `name` in `folder` (it must not exist;
    /// `O_EXCL` fails on a link there too), lets `fill` write it, then `fsync`s (unless
    /// `synchronizing` is off) and closes it. The caller renames it into place
    /// (``write(_:temporaryPath:syncingFolder:)`` at once; the disk cache under its lock,
    /// after checking the entry). The file is removed on failure.
    static func writeSynced(
        named name: String, in folder: DirectoryHandle, synchronizing: Bool = true,
        _ fill: (SystemFile) throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        var created = false
        do throws(SystemCallError) {
            let file = try folder.open(name, flags: O_WRONLY | O_CREAT | O_EXCL)
            created = true
            try fill(file)
            if synchronizing { try file.synchronize() }
            try file.close()
        } catch {
            // Never remove what was there before (a link planted under the name, say).
            if created { folder.remove(name) }
            throw error
        }
    }
}
