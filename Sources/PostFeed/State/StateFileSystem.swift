#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PostFeedCache

/// A failed system call: which step, on which path, and its `errno`.
struct SystemCallFailure: Error {
    /// What was being done, e.g. "create a temporary file".
    let step: String
    let path: String
    let errno: Int32
    /// `path` is a symbolic link where a file or folder belongs: refused, never followed.
    var isSymbolicLink = false

    var text: String { isSymbolicLink ? "is a symbolic link; refused" : String(cString: strerror(errno)) }

    /// `<path> is a symbolic link; refused`, for a refused link.
    var refusal: String { "\(path) is a symbolic link; refused" }

    /// The folder or file is read-only, forbidden, or in the way of a folder.
    var isPermissionProblem: Bool {
        [EACCES, EPERM, EROFS, ENOTDIR].contains(errno)
    }

    /// The disk (or the user's quota) is full: freeing space may let the step succeed.
    var isOutOfSpace: Bool {
        errno == ENOSPC || errno == EDQUOT
    }

    /// What the user can do about a folder that cannot be created or written, before
    /// ``Recovery/chooseAnotherCacheRoot``'s advice.
    var folderRemedy: String {
        errno == ENOTDIR || errno == EEXIST
            ? "a file is in the way of that folder; move it"
            : "make it writable"
    }
}

extension SystemCallFailure {
    /// The failure of one of ``AtomicFile``'s calls; `steps` renames its operation as
    /// the messages name it (e.g. `fsync` → "sync").
    init(_ error: SystemCallError, steps: [String: String] = [:]) {
        self.init(step: steps[error.operation] ?? error.operation, path: error.path, errno: error.errno,
                  isSymbolicLink: error.isSymbolicLink)
    }

    /// The steps of ``StateFileSystem/writeAtomically(_:to:)``, as save errors say them.
    static let writeSteps = ["open": "create a temporary file", "fsync": "sync", "rename": "rename into place"]
    /// The steps of ``StateFileSystem/read(_:maximumBytes:)``.
    static let readSteps = ["fstat": "inspect"]
}

/// The file operations list state needs, over PostFeedCache's ``AtomicFile``,
/// ``LockFile`` and ``DirectoryHandle`` (the primitive the disk cache uses too): atomic
/// replace (temporary file in the same folder, write, `fsync`, `rename`, folder `fsync`),
/// reads with a size limit, an advisory lock shared by every process using the folder,
/// moving a file aside under a name that is not taken.
///
/// **Links.** The cache root is the user's (`--cache-dir`, `$POSTFEED_CACHE_DIR`,
/// `./Cache`) and is opened by path, following a link, once per operation; `State/`, the
/// state files, their temporaries, `.state.lock` and the `*.corrupt-*` names are reached by
/// name relative to the State folder's handle, never following a link. A link at any of
/// them is refused (``SystemCallFailure/isSymbolicLink``): nothing outside is touched.
enum StateFileSystem {
    /// The State folder's name under the cache root.
    static let folderName = "State"
    /// The lock file in the State folder; its contents are never read.
    static let lockFileName = ".state.lock"

    /// Prefix of the temporary files written for `fileName`.
    static func temporaryPrefix(for fileName: String) -> String { ".\(fileName).tmp-" }

    // MARK: The folder

    /// `<root>/State`, opened by name in the root (opened by path) and never through a
    /// link; with `creating`, the root's missing folders and `State` are created first.
    ///
    /// - Throws: `create folder` for a folder that cannot be made or opened (`ENOENT` when
    ///   missing and not `creating`, `ENOTDIR` for a file in the way), with
    ///   ``SystemCallFailure/isSymbolicLink`` when `State` is a link.
    /// - Parameter subfolders: folders under `State` to open (and create) in turn, each by
    ///   name and never through a link: a named reader's `readers/<name>`.
    static func openFolder(root: URL, creating: Bool, subfolders: [String] = []) throws(SystemCallFailure) -> DirectoryHandle {
        do throws(SystemCallError) {
            let root = try DirectoryHandle.openNamed(root.standardizedFileURL.path, creating: creating)
            var folder = try root.folder(folderName, creating: creating)
            for name in subfolders { folder = try folder.folder(name, creating: creating) }
            return folder
        } catch {
            throw SystemCallFailure(step: "create folder", path: error.path, errno: error.errno, isSymbolicLink: error.isSymbolicLink)
        }
    }

    // MARK: Reading

    enum ReadOutcome {
        case data(Data)
        case missing
        case tooLarge(Int)
        case failed(SystemCallFailure)
    }

    /// The whole file `name` in `folder`, unless it is missing, larger than `maximumBytes`,
    /// or unreadable (a folder counts as unreadable, a link as refused).
    static func read(_ name: String, in folder: DirectoryHandle, maximumBytes: Int) -> ReadOutcome {
        do throws(SystemCallError) {
            switch try AtomicFile(name: name, in: folder).read(maximumBytes: maximumBytes) {
            case .data(let data): return .data(data)
            case .tooLarge(let size): return .tooLarge(size)
            }
        } catch {
            if error.operation == "open", error.errno == ENOENT, !error.isSymbolicLink { return .missing }
            return .failed(SystemCallFailure(error, steps: SystemCallFailure.readSteps))
        }
    }

    /// When `name` was last written; `nil` when it is missing or not a regular file.
    static func modificationDate(of name: String, in folder: DirectoryHandle) -> Date? {
        guard let status = folder.status(name), status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
    }

    // MARK: Writing

    /// Replaces `name` in `folder` with `data` so that a reader sees the old bytes or the
    /// new, never a mix: writes a temporary file in the same folder, syncs it, renames it
    /// into place, then syncs the folder. The temporary file is removed on failure; a link
    /// at `name` is refused, not replaced.
    static func writeAtomically(_ data: Data, to name: String, in folder: DirectoryHandle) throws(SystemCallFailure) {
        let temporaryName = temporaryPrefix(for: name) + "\(getpid())-\(UUID().uuidString.prefix(8))"
        do throws(SystemCallError) {
            try AtomicFile(name: name, in: folder).write(data, temporaryPath: folder.child(temporaryName))
        } catch {
            throw SystemCallFailure(error, steps: SystemCallFailure.writeSteps)
        }
    }

    /// Removes `name` from `folder`; `false` when it was not there. A link is refused.
    static func remove(_ name: String, in folder: DirectoryHandle) throws(SystemCallFailure) -> Bool {
        guard let status = folder.status(name) else { return false }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw SystemCallFailure(step: "remove", path: folder.child(name), errno: ELOOP, isSymbolicLink: true)
        }
        do throws(SystemCallError) {
            try folder.unlink(name)
            return true
        } catch where error.errno == ENOENT {
            return false
        } catch {
            throw SystemCallFailure(step: "remove", path: error.path, errno: error.errno)
        }
    }

    /// Removes temporary files of `fileName` left by a process that died mid-write (a link
    /// with such a name is removed as a link). Call only while holding the folder's lock:
    /// every live writer holds it too.
    static func removeOrphanedTemporaries(of fileName: String, in folder: DirectoryHandle) {
        let prefix = temporaryPrefix(for: fileName)
        for name in folder.names() where name.hasPrefix(prefix) {
            folder.remove(name)
        }
    }

    /// Renames `name` to `<name>.corrupt-<timestamp>` (adding `-2`, `-3`, … when taken) in
    /// the same folder and returns the new location. A name that is taken — by a file, a
    /// folder or a link — is never replaced: each candidate is claimed atomically
    /// (``DirectoryHandle/renameWithoutReplacing(_:to:)``), so two set-asides within one
    /// second, in one process or two, keep both files.
    static func moveAside(_ name: String, in folder: DirectoryHandle, at date: Date) throws(SystemCallFailure) -> URL {
        let base = "\(name).corrupt-\(timestamp(date))"
        for attempt in 1...1_000 {
            let candidate = attempt == 1 ? base : "\(base)-\(attempt)"
            do throws(SystemCallError) {
                try folder.renameWithoutReplacing(name, to: candidate)
                return URL(fileURLWithPath: folder.child(candidate))
            } catch where error.errno == EEXIST {
                continue
            } catch {
                throw SystemCallFailure(step: "move aside", path: folder.child(name), errno: error.errno)
            }
        }
        throw SystemCallFailure(step: "move aside", path: folder.child(name), errno: EEXIST)
    }

    // MARK: Locking

    /// Runs `body` holding an exclusive `flock` on the folder's lock file, so saves, resets
    /// and discards in any process on this folder happen one at a time. Best effort: when
    /// the lock file cannot be opened (a read-only folder, or a link there: never
    /// followed) `body` runs anyway, still safe because every write is an atomic rename.
    static func withExclusiveLock<T, E: Error>(in folder: DirectoryHandle, _ body: () throws(E) -> T) throws(E) -> T {
        try LockFile(name: lockFileName, in: folder).withExclusiveLockIfAvailable(body)
    }

    /// As ``withExclusiveLock(in:_:)``, but a lock file that is a symbolic link is refused:
    /// `refusal` makes the error thrown and `body` does not run.
    static func withExclusiveLock<T, E: Error>(
        in folder: DirectoryHandle, refusal: (SystemCallFailure) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        try LockFile(name: lockFileName, in: folder).withExclusiveLockIfAvailable(
            refusingLinks: { refusal(SystemCallFailure($0)) }, body)
    }

    // MARK: Helpers

    /// `20250501T100000Z` (UTC): sortable, and free of `:` for file systems that refuse it.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
