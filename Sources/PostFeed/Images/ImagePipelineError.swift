import Foundation
import PostFeedHTTP

/// Why an image could not be delivered. Every message names the image URL, except for a
/// post whose image URL is empty (``Code/noImageURL``): it names none, and no address
/// stands in for it.
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case network, httpStatus, notAnImage, cancelled, notCached, unsupportedURL, noImageURL, deadlineExceeded, noImage
        }
        fileprivate let base: Base
        /// The transfer failed and no cached copy could stand in.
        public static let network = Code(base: .network)
        /// The server answered neither `2xx` nor a `304` for a cached copy; no stale copy is served.
        public static let httpStatus = Code(base: .httpStatus)
        /// The body is not a PNG, JPEG, GIF or WebP (e.g. an HTML error page served with 200). Never cached.
        public static let notAnImage = Code(base: .notAnImage)
        /// The calling task, or the shared transfer, was cancelled; nothing is wrong with the image.
        public static let cancelled = Code(base: .cancelled)
        /// Offline lookup and the image is in neither cache.
        public static let notCached = Code(base: .notCached)
        /// The post's image URL cannot be fetched: not a URL, or not http(s)
        /// (`file:`, `data:`, `ftp:`).
        public static let unsupportedURL = Code(base: .unsupportedURL)
        /// The post's image URL is empty (or blank): it names no image, so nothing was
        /// requested, and the error has no ``ImagePipelineError/url``.
        public static let noImageURL = Code(base: .noImageURL)
        /// The call's `deadline:` passed before the image came; the transfer was cancelled.
        public static let deadlineExceeded = Code(base: .deadlineExceeded)
        /// The post has no image field at all (``FeedClient/image(forPostID:priority:deadline:logger:)``).
        public static let noImage = Code(base: .noImage)
        /// The code's name, e.g. `notAnImage`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The image URL as requested, before it was turned into a cache key; `nil` when the
    /// post names none (``Code/noImageURL``) or its text is no URL at all.
    public let url: URL?
    /// One sentence: what failed.
    public let message: String
    /// The HTTP layer's error, when it reported one: a failed or cancelled transfer, an error
    /// status. `nil` otherwise.
    public let underlying: HTTPClientError?
    /// What to do, when the library knows (the HTTP error's own); its advice follows
    /// ``message`` in ``description``.
    public let recovery: Recovery?

    /// What failed without the URL, curl's own words or advice: the same text for like
    /// failures, for a summary that groups them (``message`` when it has none of those).
    public let summary: String

    init(
        _ code: Code, url: URL?, message: String, underlying: HTTPClientError? = nil, recovery: Recovery? = nil,
        summary: String? = nil
    ) {
        self.code = code
        self.url = url
        self.message = message
        self.underlying = underlying
        self.recovery = recovery
        self.summary = summary ?? message
    }

    /// `image <url>: <message>` and the advice of ``recovery``, with any user info
    /// (credentials) removed from the URL and a URL longer than ``shownURLLength``
    /// characters cut with `…`; the message alone when there is no URL (`the post's image
    /// URL is empty`).
    public var description: String {
        failure + (recovery?.advice ?? "")
    }
}

extension ImagePipelineError: RecoverableError {
    /// ``description`` without the advice of ``recovery``.
    public var failure: String {
        guard let url else { return message }
        // Credentials out before the cut: a cut can end inside them, where they are no longer recognized.
        return "image \(Self.shown(URLUserInfo.removed(from: url.absoluteString))): \(URLUserInfo.removed(from: message))"
    }

    /// How many characters of an image URL a message shows: a post may name a 100 KB one.
    public static let shownURLLength = 200

    /// `text` cut to ``shownURLLength`` characters, the last one `…`, when longer.
    public static func shown(_ text: String) -> String {
        text.count > shownURLLength ? text.prefix(shownURLLength - 1) + "…" : text
    }
}

extension ImagePipelineError {
    /// What an image's error status means to the reader, by status class: gone (404, 410),
    /// not allowed (401, 403), the server in trouble (5xx, 429), or refused; with its
    /// ``summary`` (the message without its advice).
    static func statusMessage(_ status: Int, retryAfter: String?) -> (message: String, summary: String) {
        let (summary, advice): (String, String) = switch status {
        case 404, 410: ("HTTP \(status): the image is gone from the server", "")
        case 401, 403: ("HTTP \(status): not allowed to fetch the image", "; check the backend's credentials")
        case 429: ("HTTP 429: the server is rate-limiting\(retryAfter.map { " (Retry-After \($0))" } ?? "")", "; try again later")
        case 500..<600: ("HTTP \(status): the server is in trouble", "; try again later")
        default: ("HTTP \(status): the server refused the image", "")
        }
        return (summary + advice, summary)
    }
}
