import Logging
import PostFeedCache
import Synchronization

/// The shared tiers a client puts behind its page and image disk layers
/// (``FeedClient/Configuration/sharedCache``): made by the configured ``SharedCacheTier``
/// (`PostFeedRedis`'s `RedisCache.Configuration`), so the core links no Redis client.
extension FeedClient {
    /// A shared tier under `<namespace><kind namespace>` warning to the client's logger, or
    /// `nil` without a configuration. The page and image tiers share `warning`: one
    /// warning per client, whichever tier failed first.
    static func sharedTier(
        _ tier: (any SharedCacheTier)?, namespace: String, logger: Logger, warning: SharedTierWarning
    ) -> (any SharedDataCaching)? {
        guard let tier else { return nil }
        let sharedLogger = Self.logger(logger, for: "shared-cache")
        return tier.makeSharedCache(namespace: namespace) { message in
            if warning.isFirst() { sharedLogger.warning("\(message)") }
        }
    }

    /// Whether the client's shared tiers warned already.
    final class SharedTierWarning: Sendable {
        private let shown = Atomic<Bool>(false)
        func isFirst() -> Bool { !shown.exchange(true, ordering: .relaxed) }
    }
}
