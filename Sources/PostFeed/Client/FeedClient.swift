import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization

/// The composition root: builds the one object graph both list modes share — one HTTP
/// engine, one page repository, one image pipeline, one backend description, one state
/// store — the role the iOS app gave its DI container.
///
/// ```swift
/// let backend = try BackendDescription.preset("postfeed", baseURL: URL(string: "http://127.0.0.1:6969")!)
/// try await FeedClient.withFeedClient(.init(backend: backend, cacheLocation: .resolve())) { client in
///     let resumed = try await client.resumeInfinite()
///     try await client.infinite.loadMore()
///     try await client.saveInfinite(anchorIndex: resumed.anchorIndex)
/// }
/// ```
///
/// Call ``shutdown()`` (or use ``withFeedClient(_:logger:isolation:_:)``) when done: a
/// background catalog load or a prefetch keeps the feeds, and with them the HTTP engine's
/// thread, alive until it ends.
public final class FeedClient: Sendable {
    /// Everything the object graph is built from; only ``backend`` and ``cacheLocation``
    /// have no default.
    public struct Configuration: Sendable {
        /// The API both modes read: base URL, paths, pagination style, field names.
        public var backend: BackendDescription
        /// Posts per page, 1…100. Default 20.
        public var pageSize: Int
        /// Where the image cache, page cache and list state live.
        public var cacheLocation: CacheLocation
        /// The one HTTP engine's limits, timeouts and retries. By default its per-host cap is
        /// ``FeedClient/connectionsPerHost(pageSize:)``, not the engine's 16.
        public var http: HTTPClient.Configuration
        /// The image disk layer (`<root>/ImageCache`). Default size limit 256 MiB.
        public var imageCache: DiskCache.Configuration
        /// The page disk layer (`<root>/PageCache`). Default size limit 64 MiB.
        public var pageCache: DiskCache.Configuration
        /// What to do when a disk layer's folder under the cache root cannot be used (a
        /// read-only or missing parent, a file in the way). Default: a private temporary
        /// folder of this client's own, with one warning (``UnusableCacheRoot``).
        public var unusableCacheRoot: UnusableCacheRoot
        /// What plugs into the client from products of its own, e.g. `PostFeedPreview`'s
        /// `ImagePreviews()` (decoders, terminal previews, `<root>/ThumbnailCache`). None by
        /// default: the core opens no folder and links no library for them.
        public var plugins: [any FeedClientPlugin]
        /// The image memory layer and cache keys.
        public var images: ImagePipeline.Configuration
        /// Infinite scroll: prefetch threshold, window, unseen only.
        public var infinite: InfiniteFeed.Configuration
        /// Numbered pages: neighbour and image prefetching.
        public var paged: PagedFeed.Configuration
        /// Never touch the network: pages and images come from the caches only.
        public var offline: Bool
        /// The shared cache tier behind the image and page disk layers, or `nil` (default):
        /// memory → disk → shared → network, for images, pages and posts. `PostFeedRedis`'s
        /// `RedisCache.Configuration` is one (`import PostFeedRedis`). The client makes two
        /// tiers from it, under `images:` and `pages:` (one connection each), and sends
        /// their warnings to the client's logger.
        public var sharedCache: (any SharedCacheTier)?
        /// Where readers' places are kept (``FeedClient/session(for:)``), by ``ReaderID``:
        /// `nil` (default) for the files under `<cache root>/State/` (``ListStateStore``;
        /// the default reader's are the CLI's files, a named reader's are under
        /// `State/readers/<name>/`). `PostFeedRedis`'s `RedisPlaceStore` shares them between
        /// instances of a service.
        public var placeStore: (any ReaderPlaceStore)?
        /// Where metrics and spans go (``FeedTelemetry``): by default the global
        /// `MetricsSystem` and `InstrumentationSystem`, read when the client is built.
        public var telemetry: FeedTelemetry

        /// Defaults: 20 posts per page, a 64 MiB page cache, online, `http` with
        /// ``FeedClient/connectionsPerHost(pageSize:)`` connections per host; every other part with its
        /// own configuration's defaults.
        public init(
            backend: BackendDescription,
            pageSize: Int = 20,
            cacheLocation: CacheLocation,
            http: HTTPClient.Configuration? = nil,
            imageCache: DiskCache.Configuration = FeedStorage.defaultImageCache,
            pageCache: DiskCache.Configuration = FeedStorage.defaultPageCache,
            images: ImagePipeline.Configuration = ImagePipeline.Configuration(),
            infinite: InfiniteFeed.Configuration = InfiniteFeed.Configuration(),
            paged: PagedFeed.Configuration = PagedFeed.Configuration(),
            offline: Bool = false,
            sharedCache: (any SharedCacheTier)? = nil,
            telemetry: FeedTelemetry = .system,
            unusableCacheRoot: UnusableCacheRoot = .fallBackToTemporaryFolder,
            plugins: [any FeedClientPlugin] = [],
            placeStore: (any ReaderPlaceStore)? = nil
        ) {
            self.placeStore = placeStore
            self.backend = backend
            // A backend with a fixed page size (Discourse's 30) has it whatever is asked.
            let pageSize = backend.fixedPageSize ?? pageSize
            self.pageSize = pageSize
            self.cacheLocation = cacheLocation
            self.http = http ?? HTTPClient.Configuration(maximumConnectionsPerHost: FeedClient.connectionsPerHost(pageSize: pageSize))
            self.imageCache = imageCache
            self.pageCache = pageCache
            self.unusableCacheRoot = unusableCacheRoot
            self.plugins = plugins
            self.images = images
            self.infinite = infinite
            self.paged = paged
            self.offline = offline
            self.sharedCache = sharedCache
            self.telemetry = telemetry
        }
    }

    /// The default per-host connection cap for `pageSize`: a page's images, the page
    /// itself, the next page's prefetch and its first 10 images in one round
    /// (`pageSize + 12`), at least the engine's 16 and at most 64.
    ///
    /// With the engine's 16 over HTTP/1.1 a 20-post page's 19 images and the next page
    /// went out in two rounds, so a cold `page 1` took three round trips instead of two
    /// (`BENCHMARKS.md`, issue 16). Over HTTP/2 the cap bounds streams on one connection.
    public static func connectionsPerHost(pageSize: Int) -> Int {
        min(64, max(16, pageSize.addingReportingOverflow(12).partialValue))
    }

    /// The configuration this client was built with.
    public let configuration: Configuration

    /// The backend both modes read (``Configuration/backend``).
    public var backend: BackendDescription { configuration.backend }
    /// The cache root and its folders (``Configuration/cacheLocation``).
    public var cacheLocation: CacheLocation { configuration.cacheLocation }
    /// The one HTTP engine (libcurl), shared by the repository and the image pipeline;
    /// stopped by ``shutdown()``.
    public let http: HTTPClient
    /// Pages and posts: an ``HTTPPostRepository``, answering from the page cache alone when
    /// ``Configuration/offline``.
    public let repository: any PostRepository
    /// The one cached-HTTP path the repository and the image pipeline share.
    let loader: CachedHTTPLoader
    /// The image pipeline over ``imageCache``; its cache keys are scoped to the backend.
    public let images: ImagePipeline
    /// The image disk layer at ``CacheLocation/imageCache``, or, when that folder cannot be
    /// opened and ``Configuration/unusableCacheRoot`` allows, in this client's own temporary
    /// folder (``fallbackCacheFolder``), which ``shutdown()`` removes.
    public let imageCache: DiskCache
    /// The page disk layer at ``CacheLocation/pageCache``, with the same fallback as
    /// ``imageCache``.
    public let pageCache: DiskCache
    /// What the plugins added (``Configuration/plugins``), found with ``part(_:)``.
    let parts: [any FeedClientPart]
    /// The shared image tier (``Configuration/sharedCache``), or `nil`.
    public let sharedImageCache: (any SharedDataCaching)?
    /// The shared page tier (``Configuration/sharedCache``, its pages and posts), or `nil`.
    public let sharedPageCache: (any SharedDataCaching)?
    /// The list-state files under ``CacheLocation/state``, one per mode.
    public let stateStore: ListStateStore
    /// Where readers' places are kept (``Configuration/placeStore``; by default
    /// ``stateStore``). The one-reader API of this client (``resumeInfinite()``,
    /// ``saveInfinite(anchorIndex:shownPostIDs:)``…) is the default reader's, on ``stateStore``.
    public let placeStore: any ReaderPlaceStore
    /// The infinite-scroll mode.
    public let infinite: InfiniteFeed
    /// The numbered-pages mode.
    public let paged: PagedFeed
    let logger: Logger
    /// The temporary folder of this client's own its disk layers fell back to (unique per
    /// client, made with `mkdtemp`), removed by its ``shutdown()``; `nil` when every layer
    /// opened where configured.
    public let fallbackCacheFolder: URL?
    /// Per mode, the ``ListState/generation`` this client last loaded or saved: what its
    /// next save builds on, so a save overtaken by another process merges with it.
    let stateGenerations = Mutex<[ListMode: Int]>([:])
    /// Infinite: how far into the backend's list the reader was shown posts, in the
    /// backend's order (``ListState/shownLength``): read from the state on resume, moved by
    /// ``markShown(throughPosition:)``, saved with the place. `nil` until one of those: a
    /// client that never resumed nor marked saves every loaded post as shown.
    let shownLength = Mutex<Int?>(nil)
    /// The generation of the popularity order's file this client last loaded or saved.
    let popularityGeneration = Mutex<Int>(0)
    /// State files this client already reported as unusable (their reasons): a session
    /// reads the state once as far as the reader is told, however often it is loaded.
    let reportedStateProblems = Mutex<Set<String>>([])

    /// Builds the graph: the HTTP engine (its thread starts with the first request or
    /// ``run()``), the disk layers (see ``Configuration/unusableCacheRoot``), the repository,
    /// the image pipeline, the state store, both feeds and the plugins' parts. Call
    /// ``shutdown()`` when done, or run the client in a `ServiceGroup`.
    /// - Throws: ``FeedClientError`` `.httpEngine`, `.cacheUnavailable` (a layer's folder
    ///   cannot be used and the policy is ``UnusableCacheRoot/fail``, or no folder at all
    ///   can be), `.badBackend`, or a plugin's error.
    public init(_ configuration: Configuration, logger: Logger = Logger(label: "postfeed")) throws(FeedClientError) {
        self.configuration = configuration
        self.logger = logger
        do {
            http = try HTTPClient(configuration: configuration.http, logger: Self.logger(logger, for: "http"))
        } catch {
            throw FeedClientError(.httpEngine, "cannot start the HTTP engine: \(error)")
        }
        let location = configuration.cacheLocation
        var opener = LayerOpener(policy: configuration.unusableCacheRoot, logger: logger)
        imageCache = try opener.open(location.imageCache, configuration.imageCache)
        pageCache = try opener.open(location.pageCache, configuration.pageCache)
        var pluginLayers: [[String: DiskCache]] = []
        for plugin in configuration.plugins {
            var layers: [String: DiskCache] = [:]
            for layer in plugin.diskLayers {
                layers[layer.name] = try opener.open(
                    location.root.appendingPathComponent(layer.name, isDirectory: true), layer.configuration)
            }
            pluginLayers.append(layers)
        }
        fallbackCacheFolder = opener.fallbackFolder
        // One cached-HTTP path for pages and images; offline is its cache-only policy.
        let loader = CachedHTTPLoader(
            http: http, offline: configuration.offline, logger: Self.logger(logger, for: "loader"),
            telemetry: configuration.telemetry)
        self.loader = loader
        let firstWarning = SharedTierWarning()
        sharedImageCache = Self.sharedTier(configuration.sharedCache, namespace: "images:", logger: logger, warning: firstWarning)
        sharedPageCache = Self.sharedTier(configuration.sharedCache, namespace: "pages:", logger: logger, warning: firstWarning)
        do {
            repository = try HTTPPostRepository(
                backend: configuration.backend, pageSize: configuration.pageSize, loader: loader, pageCache: pageCache,
                sharedCache: sharedPageCache, logger: Self.logger(logger, for: "repository"))
        } catch {
            throw FeedClientError(.badBackend, error.description)
        }
        var imageConfiguration = configuration.images
        let imageKey = imageConfiguration.cacheKey
        let backend = configuration.backend
        imageConfiguration.cacheKey = { url in backend.cacheKey(imageKey(url)) }
        images = ImagePipeline(
            loader: loader, disk: imageCache, shared: sharedImageCache, configuration: imageConfiguration,
            logger: Self.logger(logger, for: "images"))
        stateStore = ListStateStore(cacheRoot: location.root)
        placeStore = configuration.placeStore ?? stateStore
        // Offline, the feeds' image prefetches only warm the memory layer from the disk.
        infinite = InfiniteFeed(
            repository: repository, images: images, configuration: configuration.infinite,
            logger: Self.logger(logger, for: "infinite"))
        paged = PagedFeed(
            repository: repository, images: images, configuration: configuration.paged,
            logger: Self.logger(logger, for: "paged"))
        var parts: [any FeedClientPart] = []
        for (plugin, layers) in zip(configuration.plugins, pluginLayers) {
            parts.append(try plugin.makePart(PluginContext(
                location: location, images: images, imageCache: imageCache, telemetry: configuration.telemetry,
                logger: logger, diskLayers: layers)))
        }
        self.parts = parts
    }

    /// The caller's logger (its handler, level and metadata) for one part of the graph,
    /// told apart by a `component` metadata value.
    static func logger(_ base: Logger, for component: String) -> Logger {
        var logger = base
        logger[metadataKey: "component"] = "\(component)"
        return logger
    }

    /// Runs `body` with a new client and shuts it down afterwards, also when `body` throws.
    /// `body` runs in the caller's isolation, so it may return a non-`Sendable` value.
    public static func withFeedClient<T>(
        _ configuration: Configuration,
        logger: Logger = Logger(label: "postfeed"),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FeedClient) async throws -> T
    ) async throws -> T {
        let client = try FeedClient(configuration, logger: logger)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// What ``finishPrefetching(then:)`` leaves behind it.
    public enum AfterPrefetching: Sendable {
        /// Prefetching goes on as before (a reader that stays).
        case keepPrefetching
        /// No prefetch starts from then on: the process is about to exit, and a prefetch
        /// started now would only be cancelled by ``shutdown()``, its bytes thrown away.
        case startNoMore
    }

    /// Waits for the prefetches under way (the next page of either mode, and the images
    /// handed to the pipeline) to end, each bounded by its request timeouts, so they are
    /// stored and the next run needs no request for them: what `postfeed page` and
    /// `postfeed list` do after printing. ``shutdown()`` alone cancels them instead.
    public func finishPrefetching(then after: AfterPrefetching = .keepPrefetching) async {
        // The next pages first: they hand their images to the pipeline as they land.
        await infinite.finishPrefetching()
        await paged.finishPrefetching()
        await images.finishPrefetching(andStop: after == .startNoMore)
    }

    /// Stops background work and the HTTP engine. A prefetch cancelled here has either
    /// stored its response whole or stores nothing: the transfers are awaited and the caches'
    /// write queues flushed before this returns.
    public func shutdown() async {
        await infinite.cancelBackgroundWork()
        await paged.cancelPrefetching()
        await loader.finishTransfers()
        await http.shutdown()
        for part in parts { await part.shutdown() }
        await imageCache.flush()
        await pageCache.flush()
        await sharedImageCache?.flush()
        await sharedPageCache?.flush()
        // Hit and miss counts outlive the process, for `postfeed cache stats`.
        for cache in [imageCache, pageCache] {
            do { try cache.persistCounters() } catch { logger.debug("cannot persist cache counters: \(error)") }
        }
        if let fallbackCacheFolder { await remove(fallbackCacheFolder) }
    }

    /// Removes the fallback cache folder: what was cached there was for this run only.
    /// `shutdown()` flushed both caches' write queues first; a straggler that reached a
    /// queue late can still make the removal fail, so flush again and retry.
    private func remove(_ folder: URL) async {
        // A second shutdown (run() under a ServiceGroup, then withFeedClient's) finds it gone.
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        for attempt in 1...3 {
            do {
                try FileManager.default.removeItem(at: folder)
                return
            } catch {
                guard attempt < 3 else {
                    // A temporary folder the user cannot act on: not worth a warning.
                    logger.debug("cannot remove the temporary cache \(folder.path): \(error)")
                    return
                }
                await imageCache.flush()
                await pageCache.flush()
                for part in parts { await part.shutdown() }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// A disk cache warning as a reader should see it: the page cache's own bookkeeping
    /// entries (`postfeed.page-index …`) are internal keys, not something to name.
    static func readable(_ warning: DiskCacheError) -> DiskCacheError {
        guard let key = warning.key, key.hasPrefix("postfeed.") else { return warning }
        return warning.naming(entry: "the page cache's index")
    }

    /// Logs a recoverable error as a warning: what failed as the message, the recovery's
    /// code as the `recovery` metadata (a caller's log handler words it), else the whole
    /// message.
    static func warn(_ error: some RecoverableError, logger: Logger) {
        if let recovery = error.recovery {
            logger.warning("\(error.failure)", metadata: [Recovery.metadataKey: "\(recovery.rawValue)"])
        } else {
            logger.warning("\(error.failure)")
        }
    }
}

/// Why a ``FeedClient`` could not be built. A struct over a private code, as the other
/// errors of the package, so cases can be added without breaking users.
///
/// ```swift
/// do { client = try FeedClient(configuration) }
/// catch where error.code == .cacheUnavailable { /* ask for another cache folder */ }
/// ```
public struct FeedClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case httpEngine = "HTTP engine"
            case cacheUnavailable = "cache unavailable"
            case badBackend = "bad backend"
            case other
        }
        fileprivate let base: Base

        /// libcurl could not be initialised (the HTTP engine did not start).
        public static let httpEngine = Code(base: .httpEngine)
        /// Neither the cache folder nor a private temporary one could be opened.
        public static let cacheUnavailable = Code(base: .cacheUnavailable)
        /// The backend description cannot make requests (e.g. a page size it rejects).
        public static let badBackend = Code(base: .badBackend)
        /// Made with ``FeedClientError/init(_:)``.
        public static let other = Code(base: .other)

        /// A short name of the code, e.g. `cache unavailable`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What failed, without the advice of ``recovery``.
    public let failure: String
    /// What to do, when the library knows (another cache root for `.cacheUnavailable`).
    public let recovery: Recovery?

    /// One line: what failed and what to do.
    public var description: String { failure + (recovery?.advice ?? "") }

    /// An error with `code`, e.g. from a ``FeedClientPlugin`` whose layer cannot be used.
    public init(_ code: Code, _ description: String) {
        self.init(code, failure: description, recovery: nil)
    }

    init(_ code: Code, failure: String, recovery: Recovery?) {
        self.code = code
        self.failure = failure
        self.recovery = recovery
    }

    /// An error with code ``Code/other``.
    public init(_ description: String) {
        self.init(.other, description)
    }
}

extension FeedClientError: RecoverableError {}

extension FeedClient.Configuration {
    /// Bounds every request of the client to `seconds` in all (connecting, stalls, retries
    /// and the waits between them included): `--timeout`, or a backend file's `timeout`.
    public mutating func limitRequests(toSeconds seconds: Double) {
        http.timeouts = BackendDescription.requestTimeouts(seconds, from: http.timeouts)
    }
}
