import Foundation

/// What the three readers share: URL resolution, one-line text, fallback identifiers.
enum FeedReading {
    /// `string` resolved against `base`, kept only when it is `http` or `https` (the scheme
    /// made lowercase, `HTTPS:` being the same scheme): a feed must not point the loader at
    /// `file:` or other schemes.
    static func webURL(_ string: String?, base: URL?) -> URL? {
        guard let string = string.map(WhiteSpace.trimmed), !string.isEmpty else { return nil }
        guard var url = URL(string: string, relativeTo: base)?.absoluteURL, let scheme = url.scheme, url.host != nil else { return nil }
        let lowered = scheme.lowercased()
        guard lowered == "http" || lowered == "https" else { return nil }
        if scheme != lowered {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            components.scheme = lowered
            guard let normalized = components.url else { return nil }
            url = normalized
        }
        return url
    }

    /// A base URL moved by an `xml:base` value.
    static func rebase(_ base: URL?, by value: String?) -> URL? {
        guard let value = value.map(WhiteSpace.trimmed), !value.isEmpty else { return base }
        return URL(string: value, relativeTo: base)?.absoluteURL ?? base
    }

    /// A title or name as one clean line: entities decoded, control characters dropped,
    /// runs of white space made one space; `nil` when nothing is left.
    static func line(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let decoded = TerminalText.line(HTMLText.decodeEntities(text))
        let collapsed = WhiteSpace.collapsed(decoded)
        return collapsed.isEmpty ? nil : collapsed
    }

    /// An identifier trimmed of surrounding white space; `nil` when empty.
    static func identifier(_ text: String?) -> String? {
        guard let value = text.map(WhiteSpace.trimmed), !value.isEmpty else { return nil }
        return value
    }

    /// The identifier of an item whose feed gives none and no link: a hash of what it
    /// holds, stable across fetches of the same item.
    static func contentHash(_ parts: String?...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for part in parts {
            for byte in (part ?? "").utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "hash:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether a MIME type is an image's.
    static func isImage(type: String?) -> Bool {
        type.map { WhiteSpace.trimmed($0).lowercased().hasPrefix("image/") } ?? false
    }

    /// Whether a URL's path ends like an image file's (for `media:content` without a type).
    static func looksLikeImage(_ url: URL) -> Bool {
        ["jpg", "jpeg", "png", "gif", "webp", "avif"].contains(url.pathExtension.lowercased())
    }
}
