/// How a request may use the cache, for pages, posts and images alike (the one
/// cached-HTTP path, `CachedHTTPLoader`).
///
/// "The network fails" means no response arrived (connection, timeout), or the server
/// answered `5xx` or `429`: a cached copy is then served marked stale, with the reason
/// (stale-if-error). Offline (`--offline`, ``FeedClient/Configuration/offline``) is
/// ``cacheOnly`` applied to every request.
///
/// | policy | fresh entry | expired entry | no entry |
/// |---|---|---|---|
/// | ``useCache`` | served | revalidated (`304` refreshes it) | fetched |
/// | ``cacheElseLoad`` | served | served as it is | fetched |
/// | ``revalidate`` | revalidated | revalidated | fetched |
/// | ``reload`` | fetched unconditionally | fetched unconditionally | fetched |
/// | ``cacheOnly`` | served | served, marked stale ("offline") | `.notCached` |
///
/// Under ``useCache``, a response fetched or revalidated by the same loader in the last
/// five minutes (this run, for the command-line tool) is used as fetched, whatever its
/// headers say, and not asked for again: ``revalidate`` and ``reload`` ask anyway.
public enum CachePolicy: Sendable, Hashable, Codable {
    /// A fresh cached copy is used without a request; an expired one is revalidated with
    /// `If-None-Match` / `If-Modified-Since` (a `304` refreshes its expiry); when the
    /// network fails the cached copy is used marked stale.
    case useCache
    /// Any cached copy is used as it is, expired or not; only a missing one is fetched.
    case cacheElseLoad
    /// Always ask the server, conditionally when a cached copy exists; fall back to the
    /// stale cached copy when the network fails.
    case revalidate
    /// Ask the server unconditionally and replace the cached copy (refresh). The cache is
    /// bypassed both ways in: a network failure is an error, not a stale copy.
    case reload
    /// Never touch the network: the cached copy (marked stale when expired) or a
    /// `.notCached` error.
    case cacheOnly
}

/// The page cache's name for ``CachePolicy``, from when only pages had one.
public typealias PageCachePolicy = CachePolicy
