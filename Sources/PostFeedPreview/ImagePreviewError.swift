import PostFeed
import Foundation
import PostFeedHTTP

/// Why a post's image could not be previewed: one line naming the image's URL (when the
/// post names one) and the reason. A struct over a private code, like the package's other errors.
public struct ImagePreviewError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unavailable, undecodable, cancelled
    }

    private let code: Code
    /// The image's URL; `nil` when the post names none (its image URL is empty).
    public let url: URL?
    /// The reason, one line.
    public let reason: String

    private init(_ code: Code, url: URL?, reason: String) {
        self.code = code
        self.url = url
        self.reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The image could not be had (network, HTTP status, not an image, offline and not
    /// cached): `reason` is the image pipeline's.
    public static func unavailable(_ url: URL?, reason: String) -> Self { Self(.unavailable, url: url, reason: reason) }
    /// The bytes are truncated, corrupt, or declare more pixels than the decoder accepts.
    public static func undecodable(_ url: URL, reason: String) -> Self { Self(.undecodable, url: url, reason: reason) }
    /// The task asking was cancelled.
    public static func cancelled(_ url: URL?) -> Self { Self(.cancelled, url: url, reason: "cancelled") }

    /// The image could not be had.
    public var isUnavailable: Bool { code == .unavailable }
    /// The image could not be decoded.
    public var isUndecodable: Bool { code == .undecodable }
    /// The preview was cancelled.
    public var isCancelled: Bool { code == .cancelled }

    /// `image <url>: <reason>`, with any user info (credentials) removed from the URL; the
    /// reason alone without a URL.
    public var description: String {
        guard let url else { return reason }
        return URLUserInfo.removed(from: "image \(url.absoluteString): \(reason)")
    }
}
