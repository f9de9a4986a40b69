import PostFeedCache
import PostFeedHTTP

/// What a reader can do about a failure, as a typed value: the library says it in its own
/// words (``advice``), and a caller with flags and commands of its own (the `postfeed` CLI)
/// maps each case to them. No library message names a CLI flag or command.
///
/// Its raw value is a stable code, e.g. `allow-more-time`, for logs and machine-readable output.
///
/// ```swift
/// catch let error as any RecoverableError where error.recovery == .allowMoreTime { … }
/// ```
public enum Recovery: String, Sendable, Hashable, CaseIterable {
    /// A request used up its whole time: the server may be slow; allow requests more time.
    case allowMoreTime = "allow-more-time"
    /// The server stopped sending mid-body: check the server; a longer timeout does not
    /// lengthen the stall limit.
    case checkStalledServer = "check-stalled-server"
    /// The proxy failed: check its URL and that it runs, or go direct.
    case checkProxy = "check-proxy"
    /// The backend answered something else than the description says: check the base URL
    /// and the backend description (API flavour, posts path).
    case checkBackend = "check-backend"
    /// The cache folder (or its State folder) cannot be used: fix it, or choose another
    /// cache root.
    case chooseAnotherCacheRoot = "choose-another-cache-root"
    /// A cache file failed to read or write: verify the cache's entries, or clear it.
    case verifyCache = "verify-cache"
    /// A saved place cannot be kept up to date: resetting the state starts over.
    case resetState = "reset-state"
    /// There is no next page: going back to the first page starts over.
    case startFromFirstPage = "start-from-first-page"
    /// A state file holds another backend's place: showing a page of this backend starts
    /// here, and keeps that file aside.
    case showPageOfThisBackend = "show-page-of-this-backend"
    /// A page was larger than the backend's limit on one page's bytes
    /// (``BackendDescription/maximumPageBodySize``): raise it if such pages are expected.
    case raisePageBodyLimit = "raise-page-body-limit"

    /// The `Logger.Metadata` key under which the library's warnings carry their recovery's
    /// code (the message is then what failed, without advice).
    public static let metadataKey = "recovery"

    /// The library's words for what to do, with the punctuation that joins them to what
    /// failed: ``RecoverableError/failure`` + `advice` is the message.
    public var advice: String {
        switch self {
        case .allowMoreTime: "; check the server, or allow more time"
        case .checkStalledServer: ": check the server (a longer request timeout does not lengthen this limit)"
        case .checkProxy: "; check the proxy URL and that it is running, or go direct"
        case .checkBackend: "; check that the base URL and the backend describe this API"
        case .chooseAnotherCacheRoot: " or choose another cache folder"
        case .verifyCache: "; verify the cache or clear it"
        case .resetState: " (resetting the state starts over)"
        case .startFromFirstPage: " (going back to the first page starts over)"
        case .showPageOfThisBackend: " (showing a page keeps the file aside)"
        case .raisePageBodyLimit: ". Raise the limit on one page's bytes if such pages are expected"
        }
    }
}

/// An error that says what failed apart from what to do about it, so that a caller can
/// say the second part in its own terms (flags, commands) without parsing the message:
/// its description is ``failure`` followed by ``Recovery/advice``.
public protocol RecoverableError: Error, CustomStringConvertible {
    /// What failed, naming the URL, page or file, without the advice of ``recovery``
    /// (the whole message when there is no recovery).
    var failure: String { get }
    /// What to do, when the library knows; `nil` when the message says it all.
    var recovery: Recovery? { get }
}

extension RecoverableError {
    /// ``RecoverableError/failure`` followed by `advice(recovery)`: how a caller words the
    /// message with its own advice. ``RecoverableError/failure`` alone when there is no recovery.
    public func message(advice: (Recovery) -> String) -> String {
        recovery.map { failure + advice($0) } ?? failure
    }
}

// MARK: - The errors of the modules below

extension HTTPClientError: RecoverableError {
    /// What to do about a total or stall timeout or a failed proxy; `nil` for other
    /// failures, whose `reason` says what to do.
    public var recovery: Recovery? {
        remedy.map(Recovery.init)
    }
}

extension Recovery {
    /// The recovery for what the HTTP layer advises.
    public init(_ remedy: HTTPClientError.Remedy) {
        switch remedy {
        case .allowMoreTime: self = .allowMoreTime
        case .checkStalledServer: self = .checkStalledServer
        case .checkProxy: self = .checkProxy
        }
    }
}

extension DiskCacheError: RecoverableError {
    /// ``Recovery/verifyCache`` for an input/output failure; `nil` for the others, whose
    /// message says what to do.
    public var recovery: Recovery? {
        suggestsVerifying ? .verifyCache : nil
    }

    /// What failed, without the advice to verify the cache.
    public var failure: String { failureText }
}
