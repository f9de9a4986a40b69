import Foundation

/// An open folder through which everything below it is reached: `openat`, `mkdirat`,
/// `renameat`, `linkat`, `unlinkat` and `fstatat(AT_SYMLINK_NOFOLLOW)` relative to its
/// descriptor, none of them following a symbolic link.
///
/// **Links.** Only the folder a user names — a cache root given by `--cache-dir`,
/// `$POSTFEED_CACHE_DIR` or `./Cache`, or the folder a caller hands ``AtomicFile`` — is
/// opened by path, following links, once (``openNamed(_:creating:)``): a root that is a link
/// the user chose is theirs to choose. Everything below it — the layer folders
/// (`ImageCache/`, `PageCache/`, `ThumbnailCache/`, `State/`), fan-out folders, `.tmp`,
/// `.lock`, entries, temporary files, state files, the state lock, `*.corrupt-*` names —
/// is one name at a time relative to a handle, with `O_NOFOLLOW` (`O_DIRECTORY` for
/// folders). A link where a file or folder is expected fails with
/// ``SystemCallError/isSymbolicLink`` ("… is a symbolic link; refused"), so nothing
/// outside the root is read, written, created or removed through it.
///
/// ```swift
/// let root = try DirectoryHandle.openNamed("/home/me/.cache/postfeed", creating: true)
/// let state = try root.folder("State", creating: true)    // refuses a link
/// let names = state.names()
/// ```
///
/// The descriptor (`O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC`) closes when the handle is released;
/// a disk cache keeps its folders' handles for its lifetime.
public final class DirectoryHandle: Sendable {
    /// The open folder.
    let descriptor: Int32
    /// The folder's path, for messages: every error names the full path of what failed.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { Glibc.close(descriptor) }

    /// `<path>/<name>`.
    public func child(_ name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    // MARK: Opening folders

    /// Opens the folder a user named, following links in its path (the one place links
    /// are followed); with `creating`, creates it and its missing parents first (`mkdir -p`).
    public static func openNamed(_ path: String, creating: Bool) throws(SystemCallError) -> DirectoryHandle {
        if creating { try makeNamedFolder(path) }
        while true {
            let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 { return DirectoryHandle(descriptor: descriptor, path: path) }
            if errno != EINTR { throw SystemCallError(operation: "open", path: path, errno: errno) }
        }
    }

    /// Opens the folder `name` in this one, never following a link; with `creating`, makes
    /// it first when missing.
    ///
    /// - Throws: ``SystemCallError`` — ``SystemCallError/isSymbolicLink`` for a link,
    ///   `ENOTDIR` for a file in the way, `ENOENT` when missing and not `creating`.
    public func folder(_ name: String, creating: Bool) throws(SystemCallError) -> DirectoryHandle {
        if creating, mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST {
            throw refined(SystemCallError(operation: "mkdir", path: child(name), errno: errno), name: name)
        }
        let descriptor = try openDescriptor(name, flags: O_RDONLY | O_DIRECTORY)
        return DirectoryHandle(descriptor: descriptor, path: child(name))
    }

    // MARK: Files

    /// Opens the file `name` with `flags`, never following a link (`O_NOFOLLOW`): a
    /// dangling link with `O_CREAT` fails rather than creating what it names.
    func open(_ name: String, flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> SystemFile {
        let descriptor = try openDescriptor(name, flags: flags, mode: mode)
        return SystemFile(adopting: descriptor, path: child(name))
    }

    /// What `name` is (`fstatat` without following a link); `nil` when there is nothing.
    public func status(_ name: String) -> stat? {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// This folder's own status (`fstat`).
    func ownStatus() -> stat? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status : nil
    }

    /// Whether this folder has been removed since it was opened (no name links to it).
    var isRemoved: Bool { ownStatus().map { $0.st_nlink == 0 } ?? true }

    /// Names in this folder, without `.` and `..`; empty when it cannot be listed. Each
    /// listing opens the folder anew (`openat(".")`), so concurrent listings do not share
    /// a read position.
    public func names() -> [String] {
        let listing = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0 else { return [] }
        guard let directory = fdopendir(listing) else {
            Glibc.close(listing)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: Renaming and removing

    /// Renames `name` to `newName` in `destination` (`renameat`), replacing what is there
    /// — a link there is replaced, never followed. Callers refuse a link first when
    /// replacing one would hide the refusal.
    func rename(_ name: String, to newName: String, in destination: DirectoryHandle) throws(SystemCallError) {
        guard renameat(descriptor, name, destination.descriptor, newName) == 0 else {
            throw SystemCallError(operation: "rename", path: destination.child(newName), errno: errno)
        }
    }

    /// Gives `name` the new name `newName` in this folder only if nothing has that name —
    /// file, folder or link: `linkat` (which fails with `EEXIST` rather than replace) then
    /// `unlinkat` of the old name. On a file system without hard links, a `renameat` after
    /// checking the name is free.
    ///
    /// - Throws: ``SystemCallError`` with `EEXIST` when `newName` is taken.
    public func renameWithoutReplacing(_ name: String, to newName: String) throws(SystemCallError) {
        if linkat(descriptor, name, descriptor, newName, 0) == 0 {
            unlinkat(descriptor, name, 0)
            return
        }
        let code = errno
        guard [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(code) else {
            throw SystemCallError(operation: "rename", path: child(newName), errno: code)
        }
        guard status(newName) == nil else { throw SystemCallError(operation: "rename", path: child(newName), errno: EEXIST) }
        try rename(name, to: newName, in: self)
    }

    /// Unlinks `name` (a link itself, never what it names).
    ///
    /// - Throws: ``SystemCallError`` (`unlink`, naming the file), `ENOENT` when it is gone.
    public func unlink(_ name: String) throws(SystemCallError) {
        guard unlinkat(descriptor, name, 0) == 0 else {
            throw SystemCallError(operation: "unlink", path: child(name), errno: errno)
        }
    }

    /// Unlinks `name` (a link itself, never what it names); a name already gone counts as
    /// removed.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        unlinkat(descriptor, name, 0) == 0 || errno == ENOENT
    }

    /// Removes `name` and, when it is a folder, everything in it, never following a link
    /// (links are removed as links); `true` when it is gone.
    @discardableResult
    public func removeTree(_ name: String) -> Bool {
        guard let status = status(name) else { return true }
        guard status.st_mode & S_IFMT == S_IFDIR else { return remove(name) }
        if let inner = try? folder(name, creating: false) {
            for entry in inner.names() { inner.removeTree(entry) }
        }
        return unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT
    }

    /// `fsync`s the folder, so renames in it survive a power cut. Some file systems refuse;
    /// the renames are done either way.
    func synchronize() {
        _ = fsync(descriptor)
    }

    // MARK: Steps

    /// `openat(name, flags | O_NOFOLLOW | O_CLOEXEC)`, retried on `EINTR`.
    private func openDescriptor(_ name: String, flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> Int32 {
        while true {
            let descriptor = openat(descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
            if descriptor >= 0 { return descriptor }
            if errno == EINTR { continue }
            throw refined(SystemCallError(operation: "open", path: child(name), errno: errno), name: name)
        }
    }

    /// `error`, or the refusal of a link when `name` is one (`O_NOFOLLOW` gives `ELOOP`,
    /// `O_DIRECTORY` on a link `ENOTDIR`, `mkdirat` `EEXIST`).
    private func refined(_ error: SystemCallError, name: String) -> SystemCallError {
        guard error.errno != ENOENT, let status = status(name), status.st_mode & S_IFMT == S_IFLNK else { return error }
        return .symbolicLink(error.path, operation: error.operation)
    }

    /// `mkdir -p` of a named folder, following links in its path as the user's shell would.
    private static func makeNamedFolder(_ path: String) throws(SystemCallError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemCallError(operation: "mkdir", path: path, errno: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeNamedFolder(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw SystemCallError(operation: "mkdir", path: path, errno: errno)
        }
    }
}
