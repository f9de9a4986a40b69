import Foundation
import PostFeedHTTP

/// A backend description that cannot be used: an unknown preset, or a config file that is
/// missing, not JSON, or has a missing, unknown or mistyped field. The message names the
/// file and the field (a dotted path such as `pagination.style`) and says what is expected.
///
/// ```
/// backend.json: field "pagination.style": unknown style "pages"; use "page", "offset", "cursor" or "link"
/// ```
public struct BackendConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The config file, when the description came from one.
    public let file: URL?
    /// The field at fault, as a dotted path (`pagination.limit`, `end[2]`); `nil` when the
    /// whole file or the preset name is at fault.
    public let field: String?
    /// What is wrong and what is expected.
    public let message: String

    /// An error in `field` of `file` (either `nil` when not known), saying `message`.
    public init(file: URL?, field: String?, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    /// One line: the file, the field and the message, joined by `: `, with the user info of
    /// any URL removed.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file.isFileURL ? file.path : file.absoluteString) }
        if let field { parts.append("field \"\(field)\"") }
        parts.append(message)
        return URLUserInfo.removed(from: parts.joined(separator: ": "))
    }
}
