import Foundation

/// What a response's caching headers allow a private cache: whether it may be stored, and
/// until when it is fresh (RFC 9111 §4.2). The one freshness policy of PostFeed, the same
/// for pages and images:
///
/// 1. `Cache-Control: no-store` → not stored.
/// 2. `no-cache` → stored, expired at once (revalidated before each use).
/// 3. `max-age=N` → fresh for `N` seconds less the response's `Age`.
/// 4. `Expires` → fresh until then, measured against the server's `Date` so a client
///    clock that is off does not shift it; an unreadable `Expires` means already expired.
/// 5. No explicit lifetime, and a `defaultLifetime` given (images: an image cache keeps
///    images, see `ImagePipeline.Configuration.defaultFreshness`): fresh for that long.
/// 6. No explicit lifetime otherwise (pages; §4.2.2, heuristic freshness): a tenth of the
///    time since `Last-Modified`, at most ``heuristicLimit``; without `Last-Modified`,
///    expired at once. An expired entry is still kept: it is revalidated (`304`, when it
///    has a validator) and serves offline reading and failures.
///
/// ```swift
/// let freshness = HTTPFreshness(headers: response.headers, now: Date())
/// if freshness.isStorable { cache.store(…, expiresAt: freshness.expiresAt) }
/// let image = HTTPFreshness(headers: response.headers, now: Date(), defaultLifetime: 7 * 86_400)
/// ```
public struct HTTPFreshness: Sendable, Hashable {
    /// `false` for `Cache-Control: no-store`.
    public var isStorable: Bool
    /// When the stored copy stops being fresh and must be revalidated. `now` for
    /// `no-cache` and for a response that gives nothing to go on.
    public var expiresAt: Date
    /// Whether ``expiresAt`` is a heuristic or the default lifetime (rules 5 and 6), not
    /// the server's word.
    public var isHeuristic: Bool
    /// The `ETag` value, a validator sent back as `If-None-Match` on revalidation.
    public var etag: String?
    /// The `Last-Modified` value, sent back as `If-Modified-Since` (see
    /// ``HTTPRequest/addValidators(etag:lastModified:)``).
    public var lastModified: String?

    /// The longest heuristic lifetime: one day, the cap browsers commonly use.
    public static let heuristicLimit: TimeInterval = 24 * 3600
    /// The share of the time since `Last-Modified` a heuristic lifetime is (RFC 9111 §4.2.2).
    public static let heuristicFraction = 0.1

    /// Reads a response's `Cache-Control`, `Age`, `Expires`, `Date`, `ETag` and
    /// `Last-Modified`; `now` is when the response arrived. `defaultLifetime`, in seconds,
    /// replaces the heuristic for a response that gives no explicit lifetime (no
    /// `no-cache`, `max-age` or `Expires`); `nil` (the default) keeps RFC 9111's heuristic.
    public init(headers: HTTPHeaders, now: Date, defaultLifetime: TimeInterval? = nil) {
        let directives = Self.directives(headers.values(for: "Cache-Control"))
        isStorable = directives["no-store"] == nil
        etag = headers["ETag"]
        lastModified = headers["Last-Modified"]
        isHeuristic = false
        let serverNow = headers["Date"].flatMap(HTTPDate.parse)
        if directives["no-cache"] != nil {
            expiresAt = now
        } else if let directive = directives["max-age"] {
            // The response's age at arrival counts against its lifetime. Both clamped at
            // zero first (a negative Age is invalid), so the difference cannot overflow. An
            // unreadable max-age (`1.5`, `abc`, none) is stale (RFC 9111 §4.2.1).
            if let maxAge = directive.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                let age = headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
                expiresAt = now.addingTimeInterval(TimeInterval(max(0, max(0, maxAge) - max(0, age))))
            } else {
                expiresAt = now
            }
        } else if let expires = headers["Expires"] {
            if let date = HTTPDate.parse(expires) {
                expiresAt = now.addingTimeInterval(max(0, date.timeIntervalSince(serverNow ?? now)))
            } else {
                expiresAt = now
            }
        } else if let defaultLifetime {
            expiresAt = now.addingTimeInterval(max(0, defaultLifetime))
            isHeuristic = true
        } else if let modified = lastModified.flatMap(HTTPDate.parse) {
            let age = max(0, (serverNow ?? now).timeIntervalSince(modified))
            expiresAt = now.addingTimeInterval(min(Self.heuristicLimit, age * Self.heuristicFraction))
            isHeuristic = true
        } else {
            expiresAt = now
            isHeuristic = true
        }
    }

    /// `Cache-Control` directives, lower-cased, with their unquoted values (`nil` for a
    /// directive without one). The first occurrence of a directive wins.
    public static func directives(_ fields: [String]) -> [String: String?] {
        var result: [String: String?] = [:]
        for field in fields {
            for part in field.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty,
                    result[name] == nil
                else { continue }
                let value = pieces.count > 1
                    ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    : nil
                result[name] = .some(value)
            }
        }
        return result
    }
}
