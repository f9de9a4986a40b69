import Foundation

/// Why list state could not be saved or reset. A struct over a private code, so cases can
/// be added without breaking users; the message names the file or folder and what to do.
///
/// ```swift
/// do { try store.save(state) }
/// catch where error.code == .notWritable { print(error) }
/// ```
public struct ListStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case notWritable = "not writable"
            case writeFailed = "write failed"
            case invalidState = "invalid state"
            case removeFailed = "remove failed"
            case otherBackend = "other backend"
            case unreadable = "unreadable"
        }
        fileprivate let base: Base

        /// The State folder cannot be created or written (read-only, permissions, a file in
        /// the way).
        public static let notWritable = Code(base: .notWritable)
        /// Writing, syncing or renaming the state file failed (disk full, I/O error).
        public static let writeFailed = Code(base: .writeFailed)
        /// The state would not be restored if saved (a page size below 1, a paged state with
        /// no page, …); nothing was written.
        public static let invalidState = Code(base: .invalidState)
        /// A state file could not be removed.
        public static let removeFailed = Code(base: .removeFailed)
        /// The file holds another backend's place, and the operation would have replaced it
        /// without any contact with this backend; nothing was written.
        public static let otherBackend = Code(base: .otherBackend)
        /// A file in the State folder could not be read: a symbolic link (refused, never
        /// followed), too large, or an input/output error.
        public static let unreadable = Code(base: .unreadable)

        /// A short name of the code, e.g. `not writable`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The file or folder involved.
    public let url: URL
    /// The `errno` of the failed system call, when there was one.
    public let systemError: Int32?
    /// What failed, on which path, without the advice of ``recovery`` (all of the
    /// advice when there is no recovery).
    public let failure: String
    /// What to do, when a caller may word it in its own terms: another cache root, a reset
    /// of the state, a page of this backend.
    public let recovery: Recovery?

    /// One line: what failed, on which path, and what to do.
    public var message: String { failure + (recovery?.advice ?? "") }

    /// An error with `code` about `url` (a file, or a record of another ``ReaderPlaceStore``).
    public init(_ code: Code, url: URL, systemError: Int32? = nil, message: String, recovery: Recovery? = nil) {
        self.code = code
        self.url = url
        self.systemError = systemError
        self.failure = message
        self.recovery = recovery
    }

    /// The one-line ``message``.
    public var description: String { message }
}

extension ListStateError: RecoverableError {}
