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

    var text: String { String(cString: strerror(errno)) }

    /// The folder or file is read-only, forbidden, or in the way of a folder.
    var isPermissionProblem: Bool {
        [EACCES, EPERM, EROFS, ENOTDIR].contains(errno)
    }

    /// The disk (or the user's quota) is full: freeing space may let the step succeed.
    var isOutOfSpace: Bool {
        errno == ENOSPC || errno == EDQUOT
    }

    /// What the user can do about a folder that cannot be created or written.
    var folderRemedy: String {
        errno == ENOTDIR || errno == EEXIST
            ? "a file is in the way of that folder; move it or choose another cache folder with --cache-dir"
            : "make it writable or choose another cache folder with --cache-dir"
    }
}

extension SystemCallFailure {
    /// The failure of one of ``AtomicFile``'s calls; `steps` renames its operation as
    /// the messages name it (e.g. `fsync` → "sync").
    init(_ error: SystemCallError, steps: [String: String]) {
        self.init(step: steps[error.operation] ?? error.operation, path: error.path, errno: error.errno)
    }

    /// The steps of ``StateFileSystem/writeAtomically(_:to:)``, as save errors say them.
    static let writeSteps = ["open": "create a temporary file", "fsync": "sync", "rename": "rename into place"]
    /// The steps of ``StateFileSystem/read(_:maximumBytes:)``.
    static let readSteps = ["fstat": "inspect"]
}

/// The file operations list state needs, over PostFeedCache's ``AtomicFile`` and
/// ``LockFile`` (the primitive the disk cache uses too): atomic replace (temporary file in
/// the same folder, write, `fsync`, `rename`, folder `fsync`), reads with a size limit,
/// an advisory lock shared by every process using the folder, moving a file aside under a
/// name that is not taken.
enum StateFileSystem {
    /// The lock file in the State folder; its contents are never read.
    static let lockFileName = ".state.lock"

    /// Prefix of the temporary files written for `fileName`.
    static func temporaryPrefix(for fileName: String) -> String { ".\(fileName).tmp-" }

    // MARK: Reading

    enum ReadOutcome {
        case data(Data)
        case missing
        case tooLarge(Int)
        case failed(SystemCallFailure)
    }

    /// The whole file, unless it is missing, larger than `maximumBytes`, or unreadable
    /// (a folder counts as unreadable).
    static func read(_ url: URL, maximumBytes: Int) -> ReadOutcome {
        do throws(SystemCallError) {
            switch try AtomicFile(path: url.path).read(maximumBytes: maximumBytes) {
            case .data(let data): return .data(data)
            case .tooLarge(let size): return .tooLarge(size)
            }
        } catch {
            // No file, or no State folder (a file in its place): nothing was saved.
            if error.operation == "open", error.errno == ENOENT || error.errno == ENOTDIR { return .missing }
            return .failed(SystemCallFailure(error, steps: SystemCallFailure.readSteps))
        }
    }

    // MARK: Writing

    /// Replaces `url` with `data` so that a reader sees the old bytes or the new, never a
    /// mix: writes a temporary file in the same folder, syncs it, renames it into place,
    /// then syncs the folder. The temporary file is removed on failure.
    static func writeAtomically(_ data: Data, to url: URL) throws(SystemCallFailure) {
        let temporaryName = temporaryPrefix(for: url.lastPathComponent)
            + "\(getpid())-\(UUID().uuidString.prefix(8))"
        let temporaryPath = url.deletingLastPathComponent().appendingPathComponent(temporaryName).path
        do throws(SystemCallError) {
            try AtomicFile(path: url.path).write(data, temporaryPath: temporaryPath)
        } catch {
            throw SystemCallFailure(error, steps: SystemCallFailure.writeSteps)
        }
    }

    /// Creates `url` and its missing parents; an existing folder is fine.
    static func makeFolder(_ url: URL) throws(SystemCallFailure) {
        var path = ""
        for component in url.standardizedFileURL.pathComponents {
            path = component == "/" ? "/" : (path as NSString).appendingPathComponent(component)
            if mkdir(path, mode_t(0o755)) != 0 {
                let code = errno
                var info = stat()
                if code == EEXIST, stat(path, &info) == 0 {
                    guard (info.st_mode & S_IFMT) == S_IFDIR else {
                        throw SystemCallFailure(step: "create folder", path: path, errno: ENOTDIR)
                    }
                    continue
                }
                // Existing folders we may not write into (`/`, a read-only mount) are fine.
                if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { continue }
                throw SystemCallFailure(step: "create folder", path: path, errno: code)
            }
        }
    }

    /// Removes `url`; `false` when it was not there.
    static func remove(_ url: URL) throws(SystemCallFailure) -> Bool {
        if unlink(url.path) == 0 { return true }
        if errno == ENOENT { return false }
        throw SystemCallFailure(step: "remove", path: url.path, errno: errno)
    }

    /// Removes temporary files of `fileName` left by a process that died mid-write.
    /// Call only while holding the folder's lock: every live writer holds it too.
    static func removeOrphanedTemporaries(of fileName: String, in folder: URL) {
        let prefix = temporaryPrefix(for: fileName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Renames `url` to `<name>.corrupt-<timestamp>` (adding `-2`, `-3`, … when taken) in
    /// the same folder and returns the new location.
    static func moveAside(_ url: URL, at date: Date) throws(SystemCallFailure) -> URL {
        let base = "\(url.lastPathComponent).corrupt-\(timestamp(date))"
        let folder = url.deletingLastPathComponent()
        for attempt in 1...1_000 {
            let candidate = folder.appendingPathComponent(attempt == 1 ? base : "\(base)-\(attempt)")
            var info = stat()
            if lstat(candidate.path, &info) == 0 { continue }
            guard rename(url.path, candidate.path) == 0 else {
                throw SystemCallFailure(step: "move aside", path: url.path, errno: errno)
            }
            return candidate
        }
        throw SystemCallFailure(step: "move aside", path: url.path, errno: EEXIST)
    }

    // MARK: Locking

    /// Runs `body` holding an exclusive `flock` on the folder's lock file, so saves, resets
    /// and discards in any process on this folder happen one at a time. Best effort: when
    /// the lock file cannot be opened (a read-only or missing folder) `body` runs anyway,
    /// still safe because every write is an atomic rename.
    static func withExclusiveLock<T, E: Error>(in folder: URL, _ body: () throws(E) -> T) throws(E) -> T {
        try LockFile(path: folder.appendingPathComponent(lockFileName).path).withExclusiveLockIfAvailable(body)
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
