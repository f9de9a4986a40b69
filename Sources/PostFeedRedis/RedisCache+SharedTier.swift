import PostFeedCache

/// Redis as the shared tier a client talks to through the core's protocols: `RedisCache`
/// is a ``SharedDataCaching``, its configuration a ``SharedCacheTier``.
///
/// ```swift
/// import PostFeed
/// import PostFeedRedis
///
/// configuration.sharedCache = RedisCache.Configuration(address: try RedisAddress(parsing: "redis://127.0.0.1:6379"))
/// ```
extension RedisCache: SharedDataCaching {}

extension RedisCache.Configuration: SharedCacheTier {
    /// A `RedisCache` under this configuration's namespace followed by `namespace`,
    /// sending its warnings to `warningHandler`; it connects on first use.
    public func makeSharedCache(
        namespace: String, warningHandler: @escaping @Sendable (String) -> Void
    ) -> any SharedDataCaching {
        var configuration = self
        configuration.namespace += namespace
        configuration.warningHandler = warningHandler
        return RedisCache(configuration: configuration)
    }
}
