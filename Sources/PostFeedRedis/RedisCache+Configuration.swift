import PostFeedCache
import Foundation

extension RedisCache {
    /// How the shared tier reaches Redis, names its keys and bounds its waits.
    ///
    /// ```swift
    /// var configuration = RedisCache.Configuration(address: try RedisAddress(parsing: "redis://10.0.0.5:6379"))
    /// configuration.timeout = .milliseconds(20)
    /// let shared = RedisCache(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Where Redis listens.
        public var address: RedisAddress
        /// Prefix of every key this cache writes, e.g. `postfeed:images:`.
        public var namespace: String
        /// Bounds a connect and each command (send and reply). Default 50 ms: past it the
        /// tier is skipped rather than wait.
        public var timeout: Duration
        /// Entries larger than this (body and metadata) stay local. Default 5 MiB.
        public var sizeCap: Int
        /// How long past its freshness an entry stays in Redis (its TTL is the time to
        /// `expiresAt` plus this): stale entries still serve revalidation. Default 1 day.
        public var staleWindow: Duration
        /// Freshness given to entries stored without `expiresAt`. Default 7 days.
        public var defaultTTL: Duration
        /// How long a fetch lease lasts when its holder never releases it (it died); a live
        /// holder renews it every third of this while it fetches. Default 5 s.
        public var leaseDuration: Duration
        /// The longest an instance waits on another's (renewed) lease before it fetches
        /// itself. Default 30 s.
        public var longestLeaseWait: Duration
        /// How often an instance waiting on another's lease looks for the value. Default 20 ms.
        public var leasePollInterval: Duration
        /// After a failure, the tier is skipped this long before a reconnect, doubling on
        /// each failure up to ``maxReconnectDelay``. Default 100 ms.
        public var reconnectDelay: Duration
        /// The longest wait between reconnect attempts. Default 2 s.
        public var maxReconnectDelay: Duration
        /// The current time, for TTLs.
        public var now: @Sendable () -> Date
        /// Called once in the cache's life, at its first failure (down, slow, full).
        /// Default: one line on standard error.
        public var warningHandler: @Sendable (String) -> Void

        /// Creates a configuration; every parameter but `address` defaults to the value
        /// documented on its property.
        public init(
            address: RedisAddress,
            namespace: String = "postfeed:",
            timeout: Duration = .milliseconds(50),
            sizeCap: Int = 5 << 20,
            staleWindow: Duration = .seconds(24 * 3600),
            defaultTTL: Duration = .seconds(7 * 24 * 3600),
            leaseDuration: Duration = .seconds(5),
            longestLeaseWait: Duration = .seconds(30),
            leasePollInterval: Duration = .milliseconds(20),
            reconnectDelay: Duration = .milliseconds(100),
            maxReconnectDelay: Duration = .seconds(2),
            now: @escaping @Sendable () -> Date = { Date() },
            warningHandler: @escaping @Sendable (String) -> Void = RedisCache.printWarning
        ) {
            self.address = address
            self.namespace = namespace
            self.timeout = timeout
            self.sizeCap = sizeCap
            self.staleWindow = staleWindow
            self.defaultTTL = defaultTTL
            self.leaseDuration = leaseDuration
            self.longestLeaseWait = longestLeaseWait
            self.leasePollInterval = leasePollInterval
            self.reconnectDelay = reconnectDelay
            self.maxReconnectDelay = maxReconnectDelay
            self.now = now
            self.warningHandler = warningHandler
        }
    }

    /// The default warning handler: `postfeed: warning: <message>` on standard error.
    public static let printWarning: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("postfeed: warning: \(message)\n".utf8))
    }

    /// What the tier did since it was created (the shared tier's counts, kept in the cache
    /// module so the core reads them without linking Redis).
    public typealias Statistics = SharedCacheStatistics
}
