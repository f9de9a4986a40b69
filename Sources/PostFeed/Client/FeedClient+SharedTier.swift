import Logging
import PostFeedCache
import Synchronization

/// The shared tiers (Redis) a client puts behind its page and image disk layers
/// (``FeedClient/Configuration/sharedCache``).
extension FeedClient {
    /// A shared tier under `<namespace><kind namespace>` warning to the client's logger, or
    /// `nil` without a configuration. The page and image tiers share `warning`: one
    /// warning per client, whichever tier failed first.
    static func sharedTier(
        _ configuration: RedisCache.Configuration?, namespace: String, logger: Logger, warning: SharedTierWarning
    ) -> RedisCache? {
        guard var shared = configuration else { return nil }
        shared.namespace += namespace
        let sharedLogger = Self.logger(logger, for: "shared-cache")
        shared.warningHandler = { message in
            if warning.isFirst() { sharedLogger.warning("\(message)") }
        }
        return RedisCache(configuration: shared)
    }

    /// Whether the client's shared tiers warned already.
    final class SharedTierWarning: Sendable {
        private let shown = Atomic<Bool>(false)
        func isFirst() -> Bool { !shown.exchange(true, ordering: .relaxed) }
    }
}
