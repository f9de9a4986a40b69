import Foundation
import PostFeedHTTP

/// Why an image could not be delivered. Every message names the image URL.
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case network, httpStatus, notAnImage, cancelled, notCached
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
        /// The code's name, e.g. `notAnImage`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The image URL as requested, before it was turned into a cache key.
    public let url: URL
    /// One sentence: what failed.
    public let message: String
    /// The HTTP layer's error, when it reported one: a failed or cancelled transfer, an error
    /// status. `nil` otherwise.
    public let underlying: HTTPClientError?

    init(_ code: Code, url: URL, message: String, underlying: HTTPClientError? = nil) {
        self.code = code
        self.url = url
        self.message = message
        self.underlying = underlying
    }

    /// `image <url>: <message>`, with any user info (credentials) removed from the URL.
    public var description: String { URLUserInfo.removed(from: "image \(url.absoluteString): \(message)") }
}
