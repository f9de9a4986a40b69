import Foundation

/// A failed system call: the operation, the file and `errno`, kept together so an error
/// built from it can say what failed where (sqlite-nio keeps code *and* message likewise).
///
/// ```swift
/// do throws(SystemCallError) { try AtomicFile(path: path).write(data) }
/// catch { print(error) }  // "rename /data/state.json: No space left on device"
/// ```
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. `open`, `write`, `fsync`, `rename`, `flock`.
    public var operation: String
    /// The file it was called on (for `rename`, the destination).
    public var path: String
    /// The system error number.
    public var errno: Int32
    /// `path` is a symbolic link where a file or folder belongs, refused rather than
    /// followed (``DirectoryHandle``); ``errno`` is then `ELOOP`.
    public var isSymbolicLink: Bool

    /// Creates an error for `operation` on `path` that failed with `errno`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.isSymbolicLink = false
    }

    /// The refusal of a symbolic link at `path`, met by `operation`.
    public static func symbolicLink(_ path: String, operation: String) -> SystemCallError {
        var error = SystemCallError(operation: operation, path: path, errno: ELOOP)
        error.isSymbolicLink = true
        return error
    }

    /// The system's message for ``errno``, e.g. "Permission denied"; for a refused link,
    /// "is a symbolic link; refused".
    public var message: String { isSymbolicLink ? "is a symbolic link; refused" : String(cString: strerror(errno)) }

    /// One line: `<operation> <path>: <message>`, or `<path> is a symbolic link; refused`.
    public var description: String { isSymbolicLink ? "\(path) is a symbolic link; refused" : "\(operation) \(path): \(message)" }
}
