import Foundation

/// Keeps credentials out of everything PostFeed shows or stores.
///
/// A base URL may carry user info (`http://user:password@host/api`) that libcurl sends as
/// HTTP basic authentication. Requests keep it; messages, logs, list state and printed
/// URLs never do.
///
/// ```swift
/// URLUserInfo.removed(from: "cannot connect to http://me:pw@host/x")
/// // "cannot connect to http://host/x"
/// ```
public enum URLUserInfo {
    /// `text` with the user info of every URL in it removed: `scheme://user:pw@host/…`
    /// becomes `scheme://host/…`. Text without `://…@` comes back unchanged.
    public static func removed(from text: String) -> String {
        replaced(in: text) { _ in nil }
    }

    /// `text` with the user info of every URL in it replaced by `replacement(userInfo)`
    /// (followed by `@`), or removed with its `@` where that returns `nil`.
    public static func replaced(in text: String, by replacement: (Substring) -> String?) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the first '/', '?', '#', quote or space; its user info is
            // everything before its last '@'.
            let authorityEnd = rest.firstIndex { "/?#\"' \t\r\n<>".contains($0) } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                if let replacing = replacement(rest[..<at]) { result += replacing + "@" }
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }

    /// One URL as typed by a user (an argument, a proxy variable) without its user info,
    /// also when the password holds characters a URL does not allow there (a space, `#`,
    /// `/`, `"`, `@`): everything between `://` and the last `@` goes. For a message about
    /// that one URL; a path with an `@` loses more than its user info, never less.
    public static func removed(fromTypedURL text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return removed(from: text)
        }
        return String(text[..<scheme.upperBound] + text[text.index(after: at)...])
    }
}
