import Foundation
import PostFeedHTTP

/// Why an image could not be delivered. Every message names the image URL.
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case network, httpStatus, notAnImage, cancelled, notCached
        }
        fileprivate let base: Base
        /// The transfer failed and no cached copy could stand in.
        public static let network = Code(base: .network)
        public static let httpStatus = Code(base: .httpStatus)
        /// The body is not a PNG, JPEG, GIF or WebP (e.g. an HTML error page served with 200). Never cached.
        public static let notAnImage = Code(base: .notAnImage)
        public static let cancelled = Code(base: .cancelled)
        /// Offline lookup and the image is in neither cache.
        public static let notCached = Code(base: .notCached)
        public var description: String { base.rawValue }
    }

    public let code: Code
    public let url: URL
    public let message: String
    public let underlying: HTTPClientError?

    init(_ code: Code, url: URL, message: String, underlying: HTTPClientError? = nil) {
        self.code = code
        self.url = url
        self.message = message
        self.underlying = underlying
    }

    public var description: String { URLUserInfo.removed(from: "image \(url.absoluteString): \(message)") }
}
