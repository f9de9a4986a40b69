import Foundation

/// An exclusive advisory lock (`flock`) on a file, shared by threads and processes.
///
/// Each acquisition opens its own descriptor: `flock` locks belong to an open file
/// description, so threads of one process exclude each other exactly as processes do.
/// The kernel drops the lock when the descriptor closes, including when the holder is
/// killed — a crashed process never leaves the lock held. Advisory: it excludes only code
/// that takes the same lock. The file's contents are not touched.
///
/// ```swift
/// let lock = LockFile(path: folder.appendingPathComponent(".lock").path)
/// try lock.withExclusiveLock {
///     // read, decide, write: no other holder in between
/// }
/// ```
///
/// The lock file is reached by name in its folder and never through a link: a link there
/// is refused (``SystemCallError/isSymbolicLink``), and a dangling one creates nothing.
public struct LockFile: Sendable {
    /// The lock file; created (mode 0644) when missing.
    public let path: String
    private let file: AtomicFile

    /// The lock on the file at `path`; nothing is opened until it is taken. The folder
    /// part of the path is followed as given; the lock file itself never is.
    public init(path: String) {
        self.path = path
        file = AtomicFile(path: path)
    }

    /// The lock on the file `name` in `folder`.
    public init(name: String, in folder: DirectoryHandle) {
        file = AtomicFile(name: name, in: folder)
        path = file.path
    }

    /// Runs `body` holding the lock, blocking until it is free; the lock drops when
    /// `body` returns or throws.
    ///
    /// - Throws: ``SystemCallError`` (`open` or `flock`, naming the lock file) when the
    ///   lock cannot be taken — then `body` does not run; otherwise what `body` throws.
    public func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let file = try acquire()
        return try withExtendedLifetime(file) { try body() }
    }

    /// Runs `body` holding the lock when it can be taken, and without it when the lock
    /// file cannot be created or opened (a read-only or missing folder): for callers whose
    /// every write is atomic anyway, so the lock only orders them.
    public func withExclusiveLockIfAvailable<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let file = (try? acquire()) ?? (try? acquire(flags: O_RDONLY))
        return try withExtendedLifetime(file) { () throws(E) -> T in try body() }
    }

    /// As ``withExclusiveLockIfAvailable(_:)``, except that a lock file that is a symbolic
    /// link stops everything: `body` does not run and `refusal` makes the error thrown.
    public func withExclusiveLockIfAvailable<T, E: Error>(
        refusingLinks refusal: (SystemCallError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        var held: SystemFile?
        do throws(SystemCallError) {
            held = try acquire()
        } catch where error.isSymbolicLink {
            throw refusal(error)
        } catch {
            held = try? acquire(flags: O_RDONLY)
        }
        return try withExtendedLifetime(held) { () throws(E) -> T in try body() }
    }

    /// Opens the lock file and blocks until it holds the lock; the lock lasts until the
    /// returned file is closed (released). The disk cache keeps its size ledger in it.
    func acquire(flags: Int32 = O_RDWR | O_CREAT) throws(SystemCallError) -> SystemFile {
        try file.open(flags: flags, lockingExclusively: true)
    }
}

extension AtomicFile {
    /// Opens the file itself (never through a link), blocking until it holds an exclusive
    /// `flock` when `lockingExclusively`.
    func open(flags: Int32, lockingExclusively: Bool = false) throws(SystemCallError) -> SystemFile {
        let folder: DirectoryHandle
        if let given = self.folder {
            folder = given
        } else {
            do throws(SystemCallError) {
                folder = try DirectoryHandle.openNamed(folderPath, creating: false)
            } catch {
                throw SystemCallError(operation: "open", path: path, errno: error.errno)
            }
        }
        let file = try folder.open(name, flags: flags)
        if lockingExclusively { try file.lockExclusively() }
        return file
    }
}
