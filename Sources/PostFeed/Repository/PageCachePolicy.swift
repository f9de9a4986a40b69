/// How a page (or post) request may use the page cache.
///
/// "The network fails" means no response arrived (connection, timeout), or the server
/// answered `5xx` or `429`: a cached copy is then returned with ``Page/isStale`` set.
public enum PageCachePolicy: Sendable, Hashable, Codable {
    /// A fresh cached page is returned without a request; an expired one is revalidated
    /// with `If-None-Match` / `If-Modified-Since` (a `304` refreshes its expiry); when the
    /// network fails the cached page is returned marked stale.
    case useCache
    /// Always ask the server, conditionally when a cached copy exists; fall back to the
    /// stale cached page when the network fails.
    case revalidate
    /// Ask the server unconditionally and replace the cached page (refresh). The cache is
    /// bypassed both ways in: a network failure is an error, not a stale page.
    case reload
    /// Never touch the network: the cached page (marked stale when expired) or
    /// ``RepositoryError`` `.notCached`.
    case cacheOnly
}
