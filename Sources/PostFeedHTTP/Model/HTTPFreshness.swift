import Foundation

/// What a response's caching headers allow: whether it may be stored, and until when it
/// is fresh (RFC 9111 §4.2.1: `Cache-Control: max-age` first, then `Expires` − `Date`).
///
/// ```swift
/// let freshness = HTTPFreshness(headers: response.headers, now: Date())
/// if freshness.isStorable { cache.store(…, expiresAt: freshness.expiresAt) }
/// ```
public struct HTTPFreshness: Sendable, Hashable {
    /// `false` for `Cache-Control: no-store`.
    public var isStorable: Bool
    /// When the stored copy stops being fresh and must be revalidated; `nil` when the
    /// headers say nothing (the cache's default lifetime applies). `no-cache` gives `now`.
    public var expiresAt: Date?
    /// The `ETag` value, a validator sent back as `If-None-Match` on revalidation.
    public var etag: String?
    /// The `Last-Modified` value, sent back as `If-Modified-Since` (see
    /// ``HTTPRequest/addValidators(etag:lastModified:)``).
    public var lastModified: String?

    /// Reads a response's `Cache-Control`, `Age`, `Expires`, `Date`, `ETag` and
    /// `Last-Modified`; `now` is when the response arrived. `max-age` counts from `now` less
    /// the response's `Age`; `Expires` is measured against the server's `Date`, so a client
    /// clock that is off does not shift it. An unreadable `Expires` means already expired.
    public init(headers: HTTPHeaders, now: Date) {
        let directives = Self.directives(headers.values(for: "Cache-Control"))
        isStorable = directives["no-store"] == nil
        etag = headers["ETag"]
        lastModified = headers["Last-Modified"]
        if directives["no-cache"] != nil {
            expiresAt = now
        } else if let maxAge = directives["max-age"].flatMap({ $0 }).flatMap(Int.init) {
            // The response's age at arrival counts against its lifetime. Both clamped at
            // zero first (a negative Age is invalid), so the difference cannot overflow.
            let age = headers["Age"].flatMap(Int.init) ?? 0
            expiresAt = now.addingTimeInterval(TimeInterval(max(0, max(0, maxAge) - max(0, age))))
        } else if let expires = headers["Expires"] {
            // An invalid Expires (e.g. "0") means already expired.
            guard let date = HTTPDate.parse(expires) else {
                expiresAt = now
                return
            }
            let serverNow = headers["Date"].flatMap(HTTPDate.parse) ?? now
            expiresAt = now.addingTimeInterval(date.timeIntervalSince(serverNow))
        } else {
            expiresAt = nil
        }
    }

    /// `Cache-Control` directives, lower-cased, with their unquoted values.
    static func directives(_ fields: [String]) -> [String: String?] {
        var result: [String: String?] = [:]
        for field in fields {
            for part in field.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else {
                    continue
                }
                let value = pieces.count > 1
                    ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    : nil
                result[name] = .some(value)
            }
        }
        return result
    }
}
