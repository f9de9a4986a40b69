import Foundation

extension DiskCache {
    /// How a ``DiskCache`` sizes, ages and times its entries.
    ///
    /// ```swift
    /// var configuration = DiskCache.Configuration()
    /// configuration.sizeLimit = 64 << 20                 // 64 MiB
    /// configuration.now = { fixedDate }                  // tests: inject the clock
    /// let cache = try DiskCache(directory: root.appending(path: "ImageCache"),
    ///                           configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Bytes the entry files may take (file sizes, trailers included). When a write
        /// takes the total above it, least recently used entries are removed until the
        /// total is at most ``lowWaterRatio`` × this. Default 256 MiB.
        public var sizeLimit: Int
        /// Where a trim stops, as a share of ``sizeLimit``; also the largest entry
        /// accepted. Default `0.8`.
        public var lowWaterRatio: Double
        /// Freshness given to entries stored without `expiresAt`. Default 7 days.
        public var defaultTTL: Duration
        /// How long past `expiresAt` an entry is kept before ``DiskCache/prune()`` removes
        /// it: stale entries still serve offline reading and revalidation. Default 1 day.
        public var expiredEntryGracePeriod: Duration
        /// A read refreshes an entry's last-use time (its file's mtime) only when it is
        /// older than this, to avoid a metadata write on every hit. Default 60 s.
        public var accessTimeResolution: Duration
        /// A temporary file untouched for this long is a crashed writer's leftover and is
        /// swept by trims and ``DiskCache/prune()``. Default 10 minutes.
        public var staleTemporaryFileAge: Duration
        /// After the disk refused a write, how long writes are skipped before one is tried
        /// again. Default 60 s.
        public var writeRetryInterval: Duration
        /// `fsync` each entry before renaming it into place. Default on. Off, a write costs
        /// no disk flush (0.5–20 ms each on this project's machine, one at a time on the
        /// cache's write queue); a power cut may then lose recent entries or leave them
        /// torn, which reads detect by the footer's CRC-32C and treat as missing. For caches
        /// whose entries can be fetched again, such as images.
        public var synchronizesWrites: Bool
        /// The current time. Every time the cache stores or compares — `expiresAt`
        /// defaults, last-use times, grace periods, staleness — comes from here.
        public var now: @Sendable () -> Date
        /// Called once each time the cache stops being writable, with the reason.
        /// Default: one line on standard error.
        public var warningHandler: @Sendable (DiskCacheError) -> Void

        /// Creates a configuration; every parameter defaults to the value documented on its
        /// property.
        public init(
            sizeLimit: Int = 256 << 20,
            lowWaterRatio: Double = 0.8,
            defaultTTL: Duration = .seconds(7 * 24 * 3600),
            expiredEntryGracePeriod: Duration = .seconds(24 * 3600),
            accessTimeResolution: Duration = .seconds(60),
            staleTemporaryFileAge: Duration = .seconds(600),
            writeRetryInterval: Duration = .seconds(60),
            synchronizesWrites: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() },
            warningHandler: @escaping @Sendable (DiskCacheError) -> Void = DiskCache.printWarning
        ) {
            self.sizeLimit = sizeLimit
            self.lowWaterRatio = lowWaterRatio
            self.defaultTTL = defaultTTL
            self.expiredEntryGracePeriod = expiredEntryGracePeriod
            self.accessTimeResolution = accessTimeResolution
            self.staleTemporaryFileAge = staleTemporaryFileAge
            self.writeRetryInterval = writeRetryInterval
            self.synchronizesWrites = synchronizesWrites
            self.now = now
            self.warningHandler = warningHandler
        }

        /// The total a trim reduces the cache to.
        var lowWaterMark: Int {
            Int(Double(max(0, sizeLimit)) * min(max(lowWaterRatio, 0), 1))
        }
    }

    /// The default ``Configuration/warningHandler``: `postfeed: warning: <message>` on
    /// standard error (as the shared tier's ``RedisCache/printWarning`` and the CLI's).
    public static func printWarning(_ error: DiskCacheError) {
        // `write(_:)` would trap on a full or closed stderr; a warning is not worth a crash.
        try? FileHandle.standardError.write(contentsOf: Data("postfeed: warning: \(error.description)\n".utf8))
    }
}
