import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization

/// Delivers post images: memory → disk → network, storing results back into both layers.
///
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
    /// ``DiskCache``.
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

        /// Defaults: 100 images, ``MemoryCacheDefaults/totalCostLimit`` bytes, keys from
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

    /// The URL without its fragment.
    public static let defaultCacheKey: @Sendable (URL) -> String = { url in
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private let loader: any HTTPLoading
    private let disk: (any DataCaching)?
    private let downloadsFolder: URL?
    private let memory: MemoryCache<String, CachedImage>
    private let configuration: Configuration
    private let logger: Logger
    private var flights: [String: Flight] = [:]
    private var prefetches: [String: Task<Void, Never>] = [:]
    /// Set by the first failed disk write, so the warning is logged once.
    private let diskWriteWarningShown = Atomic<Bool>(false)

    /// - Parameters:
    ///   - loader: the network layer (``HTTPClient``, or any ``HTTPLoading``).
    ///   - disk: the disk layer (a ``DiskCache`` at `<root>/ImageCache`, or any
    ///     ``DataCaching``); `nil` for memory only.
    ///   - downloadsFolder: where bodies are streamed before `disk` adopts them, on its file
    ///     system; `nil` holds bodies in memory. Defaults to a ``DiskCache``'s
    ///     ``DiskCache/temporaryDirectory``.
    public init(
        loader: any HTTPLoading,
        disk: (any DataCaching)?,
        downloadsFolder: URL? = nil,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "postfeed.images")
    ) {
        self.loader = loader
        self.disk = disk
        self.downloadsFolder = downloadsFolder ?? (disk as? DiskCache)?.temporaryDirectory
        self.memory = MemoryCache(countLimit: configuration.memoryCountLimit, totalCostLimit: configuration.memoryCostLimit)
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Public

    /// The image at `url`, from the fastest layer that has it fresh.
    public func image(for url: URL, priority: HTTPPriority = .high) async throws(ImagePipelineError) -> ImageResponse {
        let key = configuration.cacheKey(url)
        if let hit = memoryHit(key: key, url: url) { return hit }
        let waiter = UUID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Flight.Waiter) in
                join(key: key, url: url, priority: priority, waiter: waiter, continuation: continuation)
            }
        } onCancel: {
            Task { await self.leave(key: key, url: url, waiter: waiter) }
        }
        return try result.get()
    }

    /// The image only if a cache holds it (memory, then disk, expired or not); never the network.
    public func cachedImage(for url: URL) -> ImageResponse? {
        let key = configuration.cacheKey(url)
        if let hit = memoryHit(key: key, url: url, allowExpired: true) { return hit }
        guard let entry = disk?.entry(forKey: key), let info = ImageInfo(sniffing: entry.data) else { return nil }
        let stale = entry.isExpired(at: configuration.now())
        remember(key: key, data: entry.data, info: info, expiresAt: entry.metadata.expiresAt)
        return ImageResponse(url: url, cacheKey: key, data: entry.data, info: info, source: .disk, isStale: stale)
    }

    /// Where the disk layer keeps `url`'s entry, when it has one.
    public nonisolated func cachedFileURL(for url: URL) -> URL? {
        disk?.fileURL(forKey: configuration.cacheKey(url))
    }

    /// Loads `urls` into the caches at low priority. Already cached or in-flight URLs cost nothing.
    public func prefetch(_ urls: [URL]) {
        for url in urls {
            let key = configuration.cacheKey(url)
            guard prefetches[key] == nil, flights[key] == nil, memory.object(forKey: key) == nil else { continue }
            prefetches[key] = Task { [weak self] in
                _ = try? await self?.image(for: url, priority: .low)
                await self?.prefetchFinished(key: key)
            }
        }
    }

    /// Cancels every prefetch still queued or running.
    public func cancelPrefetching() {
        prefetches.values.forEach { $0.cancel() }
        prefetches.removeAll()
    }

    /// Memory-layer counters.
    public nonisolated var memoryStatistics: MemoryCacheStatistics { memory.statistics }

    /// Empties the memory layer (the disk layer is cleared through its own API).
    public nonisolated func removeAllFromMemory() {
        memory.removeAllObjects()
    }

    // MARK: Coalescing

    private func join(key: String, url: URL, priority: HTTPPriority, waiter: UUID, continuation: Flight.Waiter) {
        if Task.isCancelled {
            continuation.resume(returning: .failure(ImagePipelineError(.cancelled, url: url, message: "cancelled")))
            return
        }
        if flights[key] == nil {
            let id = UUID()
            let task = Task.detached(priority: priority == .low ? .utility : .userInitiated) { [self] in
                let result = await self.load(key: key, url: url, priority: priority)
                await self.complete(key: key, flight: id, result: result)
            }
            flights[key] = Flight(id: id, task: task)
        }
        flights[key]?.waiters[waiter] = continuation
    }

    private func leave(key: String, url: URL, waiter: UUID) {
        guard var flight = flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(ImagePipelineError(.cancelled, url: url, message: "cancelled")))
        if flight.waiters.isEmpty {
            // The last caller left: stop the transfer, and let the next caller start anew.
            flight.task.cancel()
            flights[key] = nil
        } else {
            flights[key] = flight
        }
    }

    private func complete(key: String, flight id: UUID, result: Result<ImageResponse, ImagePipelineError>) {
        guard let flight = flights[key], flight.id == id else { return }
        flights[key] = nil
        for continuation in flight.waiters.values { continuation.resume(returning: result) }
    }

    private func prefetchFinished(key: String) {
        prefetches[key] = nil
    }

    // MARK: Loading (off the actor)

    private nonisolated func load(key: String, url: URL, priority: HTTPPriority) async -> Result<ImageResponse, ImagePipelineError> {
        let now = configuration.now()
        let entry = disk?.entry(forKey: key)
        if let entry, !entry.isExpired(at: now), let info = ImageInfo(sniffing: entry.data) {
            remember(key: key, data: entry.data, info: info, expiresAt: entry.metadata.expiresAt)
            return .success(ImageResponse(url: url, cacheKey: key, data: entry.data, info: info, source: .disk, isStale: false))
        }
        var request = HTTPRequest(url: url, priority: priority)
        request.headers["Accept"] = "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1"
        if let entry { request.addValidators(etag: entry.metadata.etag, lastModified: entry.metadata.lastModified) }

        let fetched: FetchedBody
        do {
            fetched = try await fetch(request)
        } catch {
            if error.code == .cancelled {
                return .failure(ImagePipelineError(.cancelled, url: url, message: "cancelled", underlying: error))
            }
            if let entry, let info = ImageInfo(sniffing: entry.data) {
                logger.debug("network failed, serving stale image", metadata: ["url": "\(URLUserInfo.removed(from: url.absoluteString))", "error": "\(error)"])
                return .success(ImageResponse(url: url, cacheKey: key, data: entry.data, info: info, source: .disk, isStale: true))
            }
            return .failure(ImagePipelineError(.network, url: url, message: error.description, underlying: error))
        }
        defer { fetched.discard() }

        if fetched.status == 304, let entry, let info = ImageInfo(sniffing: entry.data) {
            let freshness = HTTPFreshness(headers: fetched.headers, now: now)
            await refreshOnDisk(key: key, freshness: freshness, now: now)
            remember(key: key, data: entry.data, info: info, expiresAt: freshness.expiresAt)
            return .success(ImageResponse(url: url, cacheKey: key, data: entry.data, info: info, source: .revalidated, isStale: false))
        }
        guard (200..<300).contains(fetched.status) else {
            return .failure(ImagePipelineError(
                .httpStatus, url: url,
                message: ImagePipelineError.statusMessage(fetched.status, retryAfter: fetched.headers["Retry-After"]),
                underlying: HTTPClientError.status(fetched.status, url: url)))
        }
        let data: Data
        do {
            data = try fetched.readBody()
        } catch {
            return .failure(ImagePipelineError(.network, url: url, message: "cannot read the downloaded body: \(error)"))
        }
        guard let info = ImageInfo(sniffing: data) else {
            let type = fetched.headers["Content-Type"] ?? "no Content-Type"
            return .failure(ImagePipelineError(
                .notAnImage, url: url,
                message: "the body (\(data.count) bytes, \(type)) is not a PNG, JPEG, GIF or WebP image; not cached"))
        }
        let freshness = HTTPFreshness(headers: fetched.headers, now: now)
        if freshness.isStorable {
            await storeOnDisk(key: key, url: url, fetched: fetched, data: data, info: info, freshness: freshness, now: now)
        }
        remember(key: key, data: data, info: info, expiresAt: freshness.expiresAt)
        return .success(ImageResponse(url: url, cacheKey: key, data: data, info: info, source: .network, isStale: false))
    }

    /// Entries without caching headers live this long before revalidation.
    static let defaultLifetime: TimeInterval = 7 * 24 * 3600

    private nonisolated func fetch(_ request: HTTPRequest) async throws(HTTPClientError) -> FetchedBody {
        if let downloadsFolder {
            let download = try await loader.download(request, into: downloadsFolder)
            return FetchedBody(status: download.status, headers: download.headers, file: download.fileURL, data: nil)
        }
        let response = try await loader.execute(request)
        return FetchedBody(status: response.status, headers: response.headers, file: nil, data: response.body)
    }

    /// Off the actor (memory hits must not queue behind a write that syncs to disk), on the
    /// disk cache's write queue (``DataCaching/performWrite(_:)``), off the cooperative pool.
    private nonisolated func storeOnDisk(
        key: String, url: URL, fetched: FetchedBody, data: Data, info: ImageInfo, freshness: HTTPFreshness, now: Date
    ) async {
        guard let disk else { return }
        await disk.performWrite { [self] in
            storeOnDiskNow(key: key, url: url, fetched: fetched, data: data, info: info, freshness: freshness, now: now)
        }
    }

    /// After a `304`: the entry's new expiry and validators, written like a store.
    private nonisolated func refreshOnDisk(key: String, freshness: HTTPFreshness, now: Date) async {
        guard let disk else { return }
        await disk.performWrite {
            try? disk.updateMetadata(forKey: key) { metadata in
                metadata.expiresAt = freshness.expiresAt ?? metadata.expiresAt.map { _ in now.addingTimeInterval(Self.defaultLifetime) }
                if let etag = freshness.etag { metadata.etag = etag }
                if let lastModified = freshness.lastModified { metadata.lastModified = lastModified }
            }
        }
    }

    private nonisolated func storeOnDiskNow(
        key: String, url: URL, fetched: FetchedBody, data: Data, info: ImageInfo, freshness: HTTPFreshness, now: Date
    ) {
        guard let disk else { return }
        let metadata = CacheEntryMetadata(
            key: key, url: url.absoluteString, etag: freshness.etag, lastModified: freshness.lastModified,
            contentType: fetched.headers["Content-Type"] ?? info.format.mimeType, expiresAt: freshness.expiresAt,
            storedAt: now, attributes: ["width": "\(info.width)", "height": "\(info.height)", "format": info.format.rawValue])
        do {
            if let file = fetched.file {
                try disk.storeFile(at: file, metadata: metadata, forKey: key)
            } else {
                try disk.store(data, metadata: metadata, forKey: key)
            }
        } catch {
            // A read-only or full disk degrades to memory only, with one warning.
            if !diskWriteWarningShown.exchange(true, ordering: .relaxed) {
                logger.warning("image disk cache unavailable, keeping images in memory only: \(error)")
            }
        }
    }

    /// The memory layer is thread-safe on its own.
    private nonisolated func remember(key: String, data: Data, info: ImageInfo, expiresAt: Date?) {
        memory.setObject(CachedImage(data: data, info: info, expiresAt: expiresAt), forKey: key, cost: data.count)
    }

    private func memoryHit(key: String, url: URL, allowExpired: Bool = false) -> ImageResponse? {
        guard let cached = memory.object(forKey: key) else { return nil }
        let expired = cached.expiresAt.map { $0 <= configuration.now() } ?? false
        guard allowExpired || !expired else { return nil }
        return ImageResponse(url: url, cacheKey: key, data: cached.data, info: cached.info, source: .memory, isStale: expired)
    }
}

// MARK: - Helpers

extension ImagePipeline {
    struct Flight {
        typealias Waiter = CheckedContinuation<Result<ImageResponse, ImagePipelineError>, Never>
        let id: UUID
        let task: Task<Void, Never>
        var waiters: [UUID: Waiter] = [:]
    }

    /// A response body in memory or in a temporary file the pipeline owns.
    struct FetchedBody: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var file: URL?
        var data: Data?

        func readBody() throws -> Data {
            if let data { return data }
            guard let file else { return Data() }
            return try Data(contentsOf: file)
        }

        /// Removes the temporary file unless the disk cache adopted it.
        func discard() {
            if let file, FileManager.default.fileExists(atPath: file.path) {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }
}
