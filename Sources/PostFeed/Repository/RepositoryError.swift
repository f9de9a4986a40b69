import Foundation
import PostFeedHTTP

/// Why the repository could not return a page or a post. Each message names the URL or the
/// page and says what to do.
///
/// ```swift
/// do { page = try await repository.page(.number(99)) }
/// catch where error.code == .pageOutOfRange { showLastPage() }
/// ```
public struct RepositoryError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members (`.network`, `.pageOutOfRange`, …).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case network, httpStatus, pageOutOfRange, decoding, notCached, notFound, badConfiguration, cancelled, deadlineExceeded
        }
        fileprivate let base: Base
        /// The transfer failed and no cached copy could stand in; see ``RepositoryError/underlying``.
        public static let network = Code(base: .network)
        /// The backend answered with an error status.
        public static let httpStatus = Code(base: .httpStatus)
        /// The page is before the first or past the last.
        public static let pageOutOfRange = Code(base: .pageOutOfRange)
        /// The body is not what the backend description says (missing or mistyped field, bad JSON).
        public static let decoding = Code(base: .decoding)
        /// Offline (`cacheOnly`) and the page or post is not cached.
        public static let notCached = Code(base: .notCached)
        /// The post does not exist.
        public static let notFound = Code(base: .notFound)
        /// The backend description cannot express the request.
        public static let badConfiguration = Code(base: .badConfiguration)
        /// The calling task was cancelled; nothing is wrong with the backend.
        public static let cancelled = Code(base: .cancelled)
        /// The call's `deadline:` passed before an answer came; the transfer was cancelled.
        public static let deadlineExceeded = Code(base: .deadlineExceeded)
        /// The code's name, e.g. `pageOutOfRange`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The URL involved, when there was one.
    public let url: URL?
    /// The page involved, when there was one.
    public let page: PageKey?
    /// One sentence: what failed.
    public let message: String
    /// The HTTP error underneath, for `.network` and `.httpStatus`.
    public let underlying: HTTPClientError?
    /// What to do, when the library knows; its advice follows ``message`` in ``description``.
    public let recovery: Recovery?

    /// Makes an error; `message` should name what failed and, where it helps, what to do
    /// (or leave that to `recovery`, whose advice follows it).
    public init(
        _ code: Code, url: URL?, page: PageKey?, message: String, underlying: HTTPClientError? = nil,
        recovery: Recovery? = nil
    ) {
        self.code = code
        self.url = url
        self.page = page
        self.message = message
        self.underlying = underlying
        self.recovery = recovery
    }

    /// The message, followed by the page and the URL when the message does not name them,
    /// then the advice of ``recovery``.
    public var description: String {
        failure + (recovery?.advice ?? "")
    }
}

extension RepositoryError: RecoverableError {
    /// The message, followed by the page and the URL when the message does not name them.
    public var failure: String {
        var parts: [String] = []
        if let page, !message.contains(page.description) { parts.append(page.description) }
        if let url, !message.contains(url.absoluteString) { parts.append(url.absoluteString) }
        let context = parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
        return URLUserInfo.removed(from: "\(message)\(context)")
    }
}
