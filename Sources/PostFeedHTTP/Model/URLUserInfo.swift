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
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
