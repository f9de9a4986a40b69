import Foundation
import PostFeedCache
import PostFeedHTTP

extension CachedHTTPLoader {
    /// Response headers kept with every stored entry (as `header.<name>` attributes), so
    /// that a `304` can be merged with them: RFC 9111 §4.3.4 has a cache update the stored
    /// header fields with the `304`'s and compute freshness from the result. A `304` that
    /// repeats only its validators keeps the stored `Cache-Control: max-age`.
    static let freshnessHeaders = ["Cache-Control", "Expires", "Date"]

    /// `entry` as a `304` carrying `notModified` leaves it: the freshness headers are the
    /// stored ones each replaced by the `304`'s when it sends that field, the validators
    /// likewise, `Age` is the `304`'s alone (the stored one was the old response's), and
    /// the expiry is computed from that merged set (with `defaultLifetime` when it gives none).
    static func revalidated(
        _ entry: DiskCacheEntry, by notModified: HTTPHeaders, now: Date, defaultLifetime: TimeInterval? = nil
    ) -> DiskCacheEntry {
        let prefix = PageCacheStore.headerPrefix
        var merged = HTTPHeaders()
        for name in freshnessHeaders {
            let sent = notModified.values(for: name)
            if !sent.isEmpty {
                merged[name] = sent.joined(separator: ", ")
            } else if let stored = entry.metadata.attributes[prefix + name.lowercased()] {
                merged[name] = stored
            }
        }
        if let age = notModified["Age"] { merged["Age"] = age }
        if let etag = notModified["ETag"] ?? entry.metadata.etag { merged["ETag"] = etag }
        if let modified = notModified["Last-Modified"] ?? entry.metadata.lastModified { merged["Last-Modified"] = modified }
        let freshness = HTTPFreshness(headers: merged, now: now, defaultLifetime: defaultLifetime)
        var refreshed = entry
        refreshed.metadata.expiresAt = freshness.expiresAt
        refreshed.metadata.etag = freshness.etag
        refreshed.metadata.lastModified = freshness.lastModified
        for name in freshnessHeaders {
            refreshed.metadata.attributes[prefix + name.lowercased()] = merged[name]
        }
        return refreshed
    }
}
