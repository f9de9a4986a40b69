import Foundation

/// A disk cache operation that failed: what kind of failure (``code``), which file, and
/// the system error behind it. Its ``description`` is one line naming the file and what
/// to do.
///
/// ```swift
/// do { try cache.store(data, metadata: metadata, forKey: key) }
/// catch let error as DiskCacheError where error.code == .diskFull { … }
/// ```
public struct DiskCacheError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case directoryUnavailable, notWritable, diskFull, entryTooLarge,
                 entryNotFound, temporaryFileUnavailable, ioFailure, symbolicLink
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The cache directory cannot be created or is not a directory.
        public static let directoryUnavailable = Code(.directoryUnavailable)
        /// The file system refuses writes (read-only, permissions, the folder vanished).
        /// The cache keeps serving reads; see ``DiskCache/isWritable``.
        public static let notWritable = Code(.notWritable)
        /// No space (or quota, or file size limit) left for the entry.
        public static let diskFull = Code(.diskFull)
        /// The entry is larger than the cache may hold (low-water mark of the size limit).
        public static let entryTooLarge = Code(.entryTooLarge)
        /// ``DataCaching/updateMetadata(forKey:_:)`` found no valid entry to update.
        public static let entryNotFound = Code(.entryNotFound)
        /// The file given to ``DataCaching/storeFile(at:metadata:forKey:)`` cannot be read.
        public static let temporaryFileUnavailable = Code(.temporaryFileUnavailable)
        /// Any other input/output failure.
        public static let ioFailure = Code(.ioFailure)
        /// A symbolic link stands where the cache expects a file or folder (its directory,
        /// `.tmp`, `.lock`, a fan-out folder, an entry, a download to adopt). The cache
        /// never follows one: the operation is refused and nothing the link names is touched.
        public static let symbolicLink = Code(.symbolicLink)

        /// The code's name, e.g. `diskFull`.
        public var description: String { "\(value)" }
    }

    /// The kind of failure.
    public let code: Code
    /// The file or directory involved.
    public let path: String
    /// The cache key involved, when there is one.
    public let key: String?
    /// The system error number (`errno`) behind the failure, if any.
    public let systemErrorNumber: Int32?
    /// What went wrong, in words (the system message or a detail).
    public let reason: String

    init(_ code: Code, path: String, key: String? = nil, errno: Int32? = nil, reason: String) {
        self.code = code
        self.path = path
        self.key = key
        self.systemErrorNumber = errno
        self.reason = reason
    }

    /// Classifies a failed system call: refusals become ``Code/notWritable``, lack of
    /// space ``Code/diskFull``, anything else ``Code/ioFailure``.
    ///
    /// `path` replaces the failing file's path, e.g. to name the entry rather than its
    /// temporary file — except for a refused link, always named itself.
    init(_ failure: SystemCallError, key: String? = nil, path: String? = nil) {
        if failure.isSymbolicLink {
            self.init(.symbolicLink, path: failure.path, key: key, errno: failure.errno, reason: failure.message)
            return
        }
        let code: Code = switch failure.errno {
        case EROFS, EACCES, EPERM, ENOTDIR: .notWritable
        case ENOSPC, EDQUOT, EFBIG: .diskFull
        default: .ioFailure
        }
        self.init(code, path: path ?? failure.path, key: key, errno: failure.errno,
                  reason: "\(failure.operation): \(failure.message)")
    }

    /// Whether the failure means the disk cannot take writes right now.
    var disablesWrites: Bool { code == .notWritable || code == .diskFull }

    /// What the message calls the entry of ``key`` instead of `cache entry for <key>`,
    /// e.g. `the page cache's index` for a bookkeeping entry no reader should see named.
    public private(set) var entryName: String?

    /// The same error, its entry called `name` in the message (the path stays).
    public func naming(entry name: String) -> DiskCacheError {
        var copy = self
        copy.entryName = name
        return copy
    }

    /// Whether the advice is to verify the cache or clear it (an input/output failure):
    /// the message is ``failureText`` followed by ``verifyAdvice``.
    public var suggestsVerifying: Bool {
        switch code {
        case .directoryUnavailable, .notWritable, .diskFull, .entryTooLarge, .entryNotFound, .symbolicLink,
             .temporaryFileUnavailable: false
        default: true
        }
    }

    /// The words of the advice to verify the cache, joined to what failed.
    public static let verifyAdvice = "; verify the cache or clear it"

    /// One line: what failed, which file or key, and what to do.
    public var description: String {
        suggestsVerifying ? failureText + Self.verifyAdvice : failureText
    }

    /// ``description`` without the advice to verify the cache (see ``suggestsVerifying``).
    public var failureText: String {
        let subject = key.map { "\(entryName ?? "cache entry for \($0)") (\(path))" } ?? path
        switch code {
        case .directoryUnavailable:
            let remedy = systemErrorNumber == ENOTDIR || systemErrorNumber == EEXIST
                ? "a file is in the way; move it or pass another cache directory"
                : "pass another cache directory or fix its permissions"
            return "cache directory \(path) cannot be used (\(reason)); \(remedy)"
        case .notWritable:
            return "cannot write \(subject) (\(reason)); the disk cache is read-only for now and PostFeed continues with memory only — check permissions and the mount"
        case .diskFull:
            return "no space to write \(subject) (\(reason)); free disk space or lower the cache size limit — PostFeed continues with memory only"
        case .entryTooLarge:
            return "\(subject) is too large (\(reason)); raise the cache size limit or do not cache it"
        case .entryNotFound:
            return "no valid \(subject) (\(reason)); store the entry before updating its metadata"
        case .symbolicLink:
            // The first words are the path: "<path> is a symbolic link; refused".
            return "\(path) is a symbolic link; refused (PostFeed never follows a link inside its cache); remove the link or choose another cache directory"
        case .temporaryFileUnavailable:
            return "cannot adopt downloaded file \(path) for \(key ?? "an entry") (\(reason)); download it again"
        default:
            return "\(subject): \(reason)"
        }
    }
}
