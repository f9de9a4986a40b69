import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization
import Tracing

/// Delivers post images: memory → disk → (shared tier →) network, storing results back into
/// the layers.
///
/// Below the memory layer, images take the same cached-HTTP path as pages
/// (`CachedHTTPLoader`): one freshness policy (`HTTPFreshness`), revalidation, stale on
/// error, single flight, and offline as ``CachePolicy/cacheOnly``. One difference: an image
/// whose response gives no lifetime is fresh for ``Configuration/defaultFreshness`` (7
/// days), where a page would be stale at once.
/// - **Coalescing**: concurrent requests for one URL share one transfer, which is
///   cancelled only when every caller has cancelled.
/// - **Validation**: bodies must sniff as PNG, JPEG, GIF or WebP; anything else is
///   rejected with `.notAnImage` and never cached.
/// - **Revalidation**: an expired disk entry is revalidated with `If-None-Match` /
///   `If-Modified-Since`; `304` refreshes its expiry without a body. When the network
///   fails, the stale entry is served with ``ImageResponse/isStale`` set.
/// - **Prefetch** at low priority; visible requests (`.high`) overtake it in the client's queue.
///
/// ```swift
/// let image = try await pipeline.image(for: url)
/// print(image.info.width, image.info.height, image.source)
/// ```
public actor ImagePipeline {
    /// The memory layer, cache keys and clock. The disk layer is configured on its own
    /// `DiskCache`.
    public struct Configuration: Sendable {
        /// Memory layer: at most this many images… (default 100)
        public var memoryCountLimit: Int
        /// …or this many bytes, whichever comes first.
        public var memoryCostLimit: Int
        /// Maps an image URL to its cache key; the default drops the fragment. Use it to drop
        /// signed query parameters so one image has one key:
        /// `{ url in var c = URLComponents(url: url, resolvingAgainstBaseURL: false); c?.queryItems = nil; return c?.string ?? url.absoluteString }`
        public var cacheKey: @Sendable (URL) -> String
        /// Wall-clock time, injectable for expiry tests.
        public var now: @Sendable () -> Date
        /// Return a fetched image before its disk store finishes: the store runs behind the
        /// load, and ``FeedClient/shutdown()`` waits for it (a process that shows a page of
        /// images does not wait for their bodies to pass the disk cache's write queue one by
        /// one). Without a shared tier only. Default off: the image is on disk when
        /// ``image(for:priority:)`` returns.
        public var storesBehind = false
        /// How long an image whose response gives no explicit lifetime (no `Cache-Control`
        /// `max-age` or `no-cache`, no `Expires`) is fresh: ``defaultImageFreshness``, 7 days,
        /// as SDWebImage's disk cache keeps images (Nuke and Kingfisher ignore the headers).
        /// After it the image is revalidated with its `ETag` / `Last-Modified` when it has
        /// one, else fetched again. Explicit headers always win; pages keep RFC 9111's
        /// heuristic. `nil`: the heuristic for images too.
        public var defaultFreshness: TimeInterval? = ImagePipeline.defaultImageFreshness
        /// Why bytes turned away as an image are not one, to follow "the body (35 bytes,
        /// image/gif)". The core reads headers only (``ImageInfo``); a program that links
        /// the decoders may set `ImageDecoder.rejectionReason` (PostFeedPreview) to name
        /// what the decoder finds wrong (`is not a usable image: GIF image has no pixels (0×0)`).
        public var rejectionReason: @Sendable (Data) -> String = ImagePipeline.headerRejectionReason

        /// Defaults: 100 images, `MemoryCacheDefaults.totalCostLimit` bytes, keys from
        /// ``ImagePipeline/defaultCacheKey``, the system clock.
        public init(
            memoryCountLimit: Int = 100,
            memoryCostLimit: Int = MemoryCacheDefaults.totalCostLimit,
            cacheKey: @escaping @Sendable (URL) -> String = ImagePipeline.defaultCacheKey,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.memoryCountLimit = memoryCountLimit
            self.memoryCostLimit = memoryCostLimit
            self.cacheKey = cacheKey
            self.now = now
        }
    }

    /// ``Configuration/rejectionReason``'s default: what the header says, without decoding.
    public static let headerRejectionReason: @Sendable (Data) -> String = { _ in "is not a PNG, JPEG, GIF or WebP image" }

    /// 7 days: ``Configuration/defaultFreshness``'s default.
    public static let defaultImageFreshness: TimeInterval = 7 * 24 * 3600

    /// The URL without its fragment.
    public static let defaultCacheKey: @Sendable (URL) -> String = { url in
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private let loader: CachedHTTPLoader
    private let disk: (any DataCaching)?
    private let responses: PlainResponseCache
    private let downloads: DownloadsLocation?
    private let memory: MemoryCache<String, CachedImage>
    private let configuration: Configuration
    private let logger: Logger
    private var prefetches: [String: Task<Void, Never>] = [:]
    /// Set by ``cancelPrefetching()``: no prefetch starts after it.
    private var prefetchingStopped = false

    /// - Parameters:
    ///   - loader: the network layer (`HTTPClient`, or any `HTTPLoading`).
    ///   - disk: the disk layer (a `DiskCache` at `<root>/ImageCache`, or any
    ///     `DataCaching`); `nil` for memory only.
    ///   - downloadsFolder: where bodies are streamed before `disk` adopts them, on its file
    ///     system (opened by path, following links); `nil` holds bodies in memory. Defaults
    ///     to a `DiskCache`'s `.tmp`, reached through the cache's open folder
    ///     (`DiskCache.downloadFolder()`), never by path.
    ///   - shared: the shared tier behind `disk` (Redis), or `nil` (default).
    ///   - configuration: the memory layer's limits, the cache key and the default freshness.
    ///   - logger: where the pipeline's warnings and debug lines go.
    ///   - telemetry: where metrics and spans go (default: the global systems).
    public init(
        loader: any HTTPLoading,
        disk: (any DataCaching)?,
        shared: (any SharedDataCaching)? = nil,
        downloadsFolder: URL? = nil,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "postfeed.images"),
        telemetry: FeedTelemetry = .system
    ) {
        self.init(
            loader: CachedHTTPLoader(http: loader, now: configuration.now, logger: logger, telemetry: telemetry),
            disk: disk, shared: shared,
            downloadsFolder: downloadsFolder, configuration: configuration, logger: logger)
    }

    /// A pipeline on `loader`, which a ``FeedClient`` shares with its repository.
    init(
        loader: CachedHTTPLoader, disk: (any DataCaching)?, shared: (any SharedDataCaching)? = nil, downloadsFolder: URL? = nil,
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "postfeed.images")
    ) {
        self.loader = loader
        self.disk = disk
        // A read-only or full disk degrades to memory only, with one warning.
        let warned = Atomic<Bool>(false)
        self.responses = PlainResponseCache(name: "images", cache: disk, shared: shared) { error, _ in
            if !warned.exchange(true, ordering: .relaxed) {
                logger.warning("image disk cache unavailable, keeping images in memory only: \(error)")
            }
        }
        self.downloads = downloadsFolder.map { .named($0) } ?? (disk as? DiskCache).map { .cache($0) }
        self.memory = MemoryCache(countLimit: configuration.memoryCountLimit, totalCostLimit: configuration.memoryCostLimit)
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Public

    /// The image at `url`, from the fastest layer that has it fresh (offline: from the
    /// caches, or `.notCached`).
    public nonisolated func image(for url: URL, priority: HTTPPriority = .high) async throws(ImagePipelineError) -> ImageResponse {
        let telemetry = loader.telemetry
        let started = telemetry.metrics.now()
        let span = telemetry.startSpan(.image)
        let key = configuration.cacheKey(url)
        if let hit = memoryHit(key: key, url: url) {
            telemetry.metrics.memoryHit(.image, started: started)
            telemetry.end(span, kind: .image, trail: LoadTrail(layer: .memory))
            return hit
        }
        telemetry.metrics.lookedUp(.image, in: .memory, found: false, started: started)
        var trail = LoadTrail()
        do {
            let image = try await load(
                key: key, url: url, priority: priority, policy: .useCache, context: span?.context, trail: &trail)
            telemetry.metrics.answered(.image, by: trail.layer ?? .network, started: started)
            telemetry.end(span, kind: .image, trail: trail)
            return image
        } catch {
            // A cancelled load (a prefetch stopped at exit) is no failure of the origin's.
            if error.code != .cancelled { telemetry.metrics.failed(.image, started: started) }
            telemetry.end(span, kind: .image, trail: trail, error: error)
            throw error
        }
    }

    /// The image only if a cache holds it (memory, then disk, expired or not); never the network.
    public nonisolated func cachedImage(for url: URL) -> ImageResponse? {
        let key = configuration.cacheKey(url)
        if let hit = memoryHit(key: key, url: url, allowExpired: true) { return hit }
        guard let entry = responses.liveEntry(forKey: key), let info = ImageInfo(sniffing: entry.data) else { return nil }
        let stale = entry.isExpired(at: configuration.now())
        remember(key: key, data: entry.data, info: info, expiresAt: entry.metadata.expiresAt)
        return ImageResponse(url: url, cacheKey: key, data: entry.data, info: info, source: .disk, isStale: stale)
    }

    /// Where the disk layer keeps `url`'s entry, when it has one.
    public nonisolated func cachedFileURL(for url: URL) -> URL? {
        disk?.fileURL(forKey: configuration.cacheKey(url))
    }

    /// Loads `urls` into the caches at low priority. Already cached or in-flight URLs cost
    /// nothing; after ``cancelPrefetching()``, nothing is started.
    public func prefetch(_ urls: [URL]) {
        guard !prefetchingStopped else { return }
        for url in urls {
            let key = configuration.cacheKey(url)
            guard prefetches[key] == nil, memory.object(forKey: key) == nil else { continue }
            prefetches[key] = Task { [weak self] in
                _ = try? await self?.image(for: url, priority: .low)
                await self?.prefetchFinished(key: key)
            }
        }
    }

    /// Prefetches `urls` as ``prefetch(_:)`` does, and returns once each of them has ended
    /// (stored, failed, or cancelled); one already in memory counts as ended.
    public func prefetchAndWait(_ urls: [URL]) async {
        prefetch(urls)
        let tasks = Set(urls.map(configuration.cacheKey)).compactMap { prefetches[$0] }
        for task in tasks { await task.value }
    }

    /// Returns once every prefetch started so far has ended (stored, or failed). With
    /// `stop`, none starts from then on (``prefetch(_:)`` hands back nothing), so a
    /// process about to exit cancels no transfer it started.
    public func finishPrefetching(andStop stop: Bool = false) async {
        // Each prefetch removes itself as it ends (`prefetchFinished`).
        while let task = prefetches.values.first { await task.value }
        // In the same actor turn as the last check: no prefetch slips in between.
        if stop { prefetchingStopped = true }
    }

    /// Cancels every prefetch still queued or running, and starts none from now on: a
    /// prefetch handed over late (a page's images, after the page prefetch ended) must not
    /// start while the process shuts down and make it wait. Call it on exit; ``image(for:priority:)``
    /// keeps working.
    public func cancelPrefetching() {
        prefetchingStopped = true
        prefetches.values.forEach { $0.cancel() }
        prefetches.removeAll()
    }

    /// Memory-layer counters.
    public nonisolated var memoryStatistics: MemoryCacheStatistics { memory.statistics }

    /// Empties the memory layer (the disk layer is cleared through its own API).
    public nonisolated func removeAllFromMemory() {
        memory.removeAllObjects()
    }

    private func prefetchFinished(key: String) {
        prefetches[key] = nil
    }

    // MARK: Loading (off the actor)

    private nonisolated func load(
        key: String, url: URL, priority: HTTPPriority, policy: CachePolicy, context: ServiceContext?, trail: inout LoadTrail
    ) async throws(ImagePipelineError) -> ImageResponse {
        var http = HTTPRequest(url: url, priority: priority)
        http.headers["Accept"] = "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1"
        var request = CachedHTTPLoader.Request(
            http: http, key: key, policy: policy, downloads: downloads, kind: .image, context: context)
        request.storesBehind = configuration.storesBehind
        request.defaultLifetime = configuration.defaultFreshness
        let outcome: CachedHTTPLoader.Outcome
        do {
            outcome = try await loader.load(request, in: responses, trail: &trail) { data, _ in
                guard let info = ImageInfo(sniffing: data) else { return nil }
                return CachedHTTPLoader.Accepted(
                    value: info,
                    attributes: ["width": "\(info.width)", "height": "\(info.height)", "format": info.format.rawValue],
                    contentType: info.format.mimeType)
            }
        } catch {
            throw Self.pipelineError(error, url: url)
        }
        switch outcome {
        case .cached(let entry, let revalidated, let stale):
            return try await served(
                entry, source: revalidated ? .revalidated : .disk, stale: stale, key: key, url: url, priority: priority,
                policy: policy, context: context, trail: &trail)
        case .shared(let entry):
            return try await served(
                entry, source: .shared, stale: nil, key: key, url: url, priority: priority, policy: policy, context: context,
                trail: &trail)
        case .fetched(let fetched):
            guard let info = fetched.accepted?.value as? ImageInfo else {
                let type = fetched.headers["Content-Type"] ?? "no Content-Type"
                let what = "the body (\(fetched.body.count) bytes, \(type)) \(configuration.rejectionReason(fetched.body))"
                throw ImagePipelineError(.notAnImage, url: url, message: what + "; not cached", summary: what)
            }
            remember(key: key, data: fetched.body, info: info, expiresAt: usedAsFetched(until: fetched.expiresAt))
            return ImageResponse(url: url, cacheKey: key, data: fetched.body, info: info, source: .network, isStale: false)
        case .status(let response):
            let status = ImagePipelineError.statusMessage(response.status, retryAfter: response.headers["Retry-After"])
            throw ImagePipelineError(
                .httpStatus, url: url, message: status.message, underlying: HTTPClientError.status(response.status, url: url),
                summary: status.summary)
        }
    }

    /// A cached entry (disk, revalidated, or from the shared tier) as the response, kept in
    /// memory; one that is not an image is dropped and fetched again (unless offline).
    private nonisolated func served(
        _ entry: DiskCacheEntry, source: ImageResponse.Source, stale: String?, key: String, url: URL, priority: HTTPPriority,
        policy: CachePolicy, context: ServiceContext?, trail: inout LoadTrail
    ) async throws(ImagePipelineError) -> ImageResponse {
        guard let info = ImageInfo(sniffing: entry.data) else {
            // Not an image any more (written by an older version, or tampered with).
            responses.remove(forKey: key)
            guard loader.effective(policy) != .cacheOnly else {
                throw ImagePipelineError(.notCached, url: url, message: "the cached copy is not an image (offline)")
            }
            return try await load(
                key: key, url: url, priority: priority, policy: .reload, context: context, trail: &trail)
        }
        let expiresAt = source == .revalidated ? usedAsFetched(until: entry.metadata.expiresAt) : entry.metadata.expiresAt
        remember(key: key, data: entry.data, info: info, expiresAt: expiresAt)
        return ImageResponse(
            url: url, cacheKey: key, data: entry.data, info: info, source: source, isStale: stale != nil, staleReason: stale)
    }

    private static func pipelineError(_ failure: CachedHTTPLoader.Failure, url: URL) -> ImagePipelineError {
        switch failure {
        case .notCached:
            ImagePipelineError(.notCached, url: url, message: "not in the image cache (offline)")
        case .cancelled(let underlying):
            ImagePipelineError(.cancelled, url: url, message: "cancelled", underlying: underlying)
        case .network(let error):
            ImagePipelineError(
                .network, url: url, message: error.problem, underlying: error, recovery: error.recovery, summary: error.summary)
        case .unaskedNotModified:
            ImagePipelineError(
                .httpStatus, url: url, message: "HTTP 304 Not Modified to a request without validators",
                underlying: HTTPClientError.status(304, url: url))
        case .unreadableBody(let reason):
            ImagePipelineError(.network, url: url, message: reason)
        }
    }

    /// A response fetched or revalidated now stays in memory for the loader's reuse window
    /// at least, whatever its headers say (it is not asked for again this run).
    private nonisolated func usedAsFetched(until expiresAt: Date?) -> Date {
        let reuse = configuration.now().addingTimeInterval(loader.reuseWindow)
        return max(expiresAt ?? reuse, reuse)
    }

    /// The memory layer is thread-safe on its own.
    private nonisolated func remember(key: String, data: Data, info: ImageInfo, expiresAt: Date?) {
        memory.setObject(CachedImage(data: data, info: info, expiresAt: expiresAt), forKey: key, cost: data.count)
        loader.telemetry.metrics.memorySize(.image, bytes: memory.totalCost, entries: memory.count)
    }

    private nonisolated func memoryHit(key: String, url: URL, allowExpired: Bool = false) -> ImageResponse? {
        guard let cached = memory.object(forKey: key) else { return nil }
        let expired = cached.expiresAt.map { $0 <= configuration.now() } ?? false
        guard allowExpired || !expired else { return nil }
        return ImageResponse(url: url, cacheKey: key, data: cached.data, info: cached.info, source: .memory, isStale: expired)
    }
}

