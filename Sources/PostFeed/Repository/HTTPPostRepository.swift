import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization
import Tracing

/// The ``PostRepository`` over HTTP: pages fetched with an `HTTPLoading` client, decoded
/// with a ``BackendDescription``, and kept in a disk page cache.
///
/// ```swift
/// let backend = try BackendDescription.preset("postfeed", baseURL: serverURL)
/// let repository = try HTTPPostRepository(
///     backend: backend, pageSize: 20, loader: client,
///     pageCache: try DiskCache(directory: cacheRoot.appending(path: "PageCache")))
/// let first = try await repository.page(repository.firstPageKey, cachePolicy: .useCache, priority: .high)
/// ```
///
/// **Page cache.** Each response is stored under its full request URL with its `ETag`,
/// `Last-Modified`, an expiry from `Cache-Control: max-age` / `Expires` (none means
/// "revalidate before each use"), and the headers a page is rebuilt from (`Link`, the
/// total header). An expired page is revalidated with `If-None-Match` /
/// `If-Modified-Since`; a `304` refreshes its expiry and serves the cached body. When
/// the network fails (no response, `5xx`, `429`) a cached page is returned with
/// `Page.isStale` set. `no-store` responses are not kept. A body that does not decode is
/// never stored. See ``PageCachePolicy`` for each policy and ``invalidateCachedPages()``
/// for how a refresh forgets pages.
///
/// **Posts.** `Post.imageURL` is absolute: relative image URLs are resolved against
/// ``BackendDescription/baseURL`` while decoding. ``post(id:cachePolicy:)`` asks the
/// backend's ``BackendDescription/postPath`` when it has one (cached like a page);
/// without one, or when that request cannot be answered, the post is looked up in the
/// pages loaded so far and in the cached pages.
///
/// **Numbers.** In page and offset styles every page knows its number. Cursor and link
/// pages reached by walking from the first page (in this process, or cached by one) know
/// theirs too; a cursor or link taken from elsewhere does not, and then
/// `.totalReached` cannot fire for it.
public final class HTTPPostRepository: PostRepository {
    /// The backend this repository reads, with its pagination conventions.
    public let backend: BackendDescription
    /// Posts per page, checked by ``init(backend:pageSize:loader:pageCache:sharedCache:now:logger:telemetry:)``
    /// against ``BackendDescription/maximumPageSize``.
    public let pageSize: Int
    /// The one cached-HTTP path, shared with the image pipeline in a ``FeedClient``.
    let loader: CachedHTTPLoader
    let store: PageCacheStore
    let decoder: PageDecoder
    let logger: Logger
    let memory = Mutex(Memory())
    /// Posts of recently decoded pages, for ``post(id:cachePolicy:)`` without a post path
    /// (older ones are looked up in the cached pages on disk).
    ///
    /// Bounded by count, least recently used out: a reader scrolling an infinite feed with
    /// a window of resident pages must not keep every post it scrolled past in here. It
    /// used to hold up to 10,000 posts (~10 MB) and raised the peak RSS of a 100,000-post
    /// scroll with 10 resident pages by a fifth (`postfeed-bench list`).
    let recentPosts = MemoryCache<PostID, Post>(countLimit: recentPostLimit, totalCostLimit: 0)

    /// How many posts ``recentPosts`` keeps: 50 pages of 20, 10 pages of the largest size.
    static let recentPostLimit = 1_000

    /// What this instance learnt from the pages it decoded.
    struct Memory {
        /// How many posts come before a cursor or link page, learnt from the page before it.
        var startIndexByKey: [PageKey: Int] = [:]
        /// Pages the server answered `404` for: past the end. Not asked again this run
        /// (a prefetch of the page after a full last page, then the reader's `next`), except
        /// by a reload; a refresh (``invalidateCachedPages()``) forgets them.
        var pastTheEnd: [PageKey: RepositoryError] = [:]
        /// Pages whose unreadable items were reported: once a run, not at every read.
        var reportedProblems: Set<PageKey> = []
    }

    /// Attribute names kept with a cached entry.
    enum Attribute {
        static let kind = "postfeed.kind"
        static let startIndex = "postfeed.startIndex"
    }

    /// Makes a repository for `backend`.
    ///
    /// - Parameters:
    ///   - backend: the API to read: base URL, paths, pagination style, field names.
    ///   - pageSize: posts per page, 1…``BackendDescription/maximumPageSize``.
    ///   - loader: the HTTP client, shared with the image pipeline.
    ///   - pageCache: where page bodies are kept, normally a `DiskCache` at `<cache root>/PageCache`.
    ///     It may be shared by several backends and processes.
    ///   - sharedCache: the shared tier behind `pageCache` (Redis, with a namespace of its
    ///     own: a ``FeedClient`` uses `<namespace>pages:`), or `nil` (default). See
    ///     ``invalidateCachedPages()`` for how a refresh treats its pages.
    ///   - now: the clock freshness is computed with; inject one in tests.
    ///   - logger: where the repository's warnings (a malformed post skipped, a page served
    ///     stale) and debug lines go.
    ///   - telemetry: where metrics and spans go (default: the global systems).
    /// - Throws: `.badConfiguration` for a page size out of range.
    public convenience init(
        backend: BackendDescription,
        pageSize: Int = BackendDescription.defaultPageSize,
        loader: any HTTPLoading,
        pageCache: any DataCaching,
        sharedCache: (any SharedDataCaching)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "postfeed.repository"),
        telemetry: FeedTelemetry = .system
    ) throws(RepositoryError) {
        try self.init(
            backend: backend, pageSize: pageSize,
            loader: CachedHTTPLoader(http: loader, now: now, logger: logger, telemetry: telemetry), pageCache: pageCache,
            sharedCache: sharedCache, logger: logger)
    }

    /// Makes a repository loading through `loader`, which a ``FeedClient`` shares with its
    /// image pipeline (one single-flight, one meaning of offline), and its clock.
    init(
        backend: BackendDescription, pageSize: Int, loader: CachedHTTPLoader, pageCache: any DataCaching,
        sharedCache: (any SharedDataCaching)? = nil, logger: Logger
    ) throws(RepositoryError) {
        // A backend with a fixed page size (Discourse's 30) has it whatever is asked.
        let pageSize = backend.fixedPageSize ?? pageSize
        try backend.validatePageSize(pageSize)
        self.backend = backend
        self.pageSize = pageSize
        self.loader = loader
        self.store = PageCacheStore(cache: pageCache, identity: backend.identity, now: loader.now, shared: sharedCache)
        self.decoder = PageDecoder(backend: backend, pageSize: pageSize)
        self.logger = logger
    }

    /// The first page in the backend's style: `.number(1)`, `.offset(0)`, `.cursor(nil)` or `.link(nil)`.
    public var firstPageKey: PageKey { backend.firstPageKey }

    /// The key of 1-based page `number` in page and offset styles; `nil` in cursor and link
    /// styles, which must be walked.
    public func pageKey(forPageNumber number: Int) -> PageKey? {
        backend.pageKey(forPageNumber: number, pageSize: pageSize)
    }

    /// Removes every cached page and post of this backend, in this process and in any other
    /// sharing the page cache: the backend's generation token changes, so entries stamped
    /// with the old one are never served again, and the entries listed in the backend's key
    /// index are deleted (see `PageCacheStore`). Other backends' entries are untouched.
    /// With a shared tier, its pages stored before now are misses from then on, here and
    /// (through one Redis key per backend) in every instance: each fetches them anew, and
    /// the first to do so replaces them.
    /// Offline (``CachePolicy/cacheOnly`` for every load) nothing is invalidated: the cache
    /// is all there is.
    public func invalidateCachedPages() async {
        guard !loader.offline else { return }
        let invalidatedAt = store.invalidate()
        await store.shareInvalidation(at: invalidatedAt)
        loader.forgetFetched(prefix: store.name)
        memory.withLock { $0 = Memory() }
        recentPosts.removeAllObjects()
        logger.debug("page cache invalidated", metadata: ["backend": "\(backend.identity)"])
    }

    // MARK: Pages

    /// Fetches page `key` under `cachePolicy` (the type's **Page cache**) and remembers where
    /// the next page starts and which posts it holds. A cached body this description can no
    /// longer decode is dropped and fetched again, except under ``CachePolicy/cacheOnly``.
    /// - Throws: as ``PostRepository/page(_:cachePolicy:priority:)``.
    ///
    /// Each call is one `postfeed.page.load` span and one `postfeed_loads_total` (see
    /// ``FeedTelemetry``).
    public func page(_ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority)
        async throws(RepositoryError) -> Page
    {
        let telemetry = loader.telemetry
        let started = telemetry.metrics.now()
        let span = telemetry.startSpan(.page)
        let recorder = LoadRecorder()
        do {
            let page = try await loadPage(
                key, cachePolicy: cachePolicy, priority: priority, context: span?.context, recorder: recorder)
            let trail = recorder.trail
            telemetry.metrics.answered(.page, by: trail.layer ?? .network, started: started)
            telemetry.end(span, kind: .page, trail: trail)
            return page
        } catch {
            // A cancelled load (a prefetch stopped at exit) is no failure of the origin's.
            if error.code != .cancelled { telemetry.metrics.failed(.page, started: started) }
            telemetry.end(span, kind: .page, trail: recorder.trail, error: error)
            throw error
        }
    }

    private func loadPage(
        _ key: PageKey, cachePolicy: PageCachePolicy, priority: HTTPPriority, context: ServiceContext?, recorder: LoadRecorder
    ) async throws(RepositoryError) -> Page {
        let url = try backend.pageURL(for: key, pageSize: pageSize)
        if loader.effective(cachePolicy) != .reload, let known = memory.withLock({ $0.pastTheEnd[key] }) { throw known }
        let cacheKey = backend.cacheKey(url.absoluteString)
        let start = startIndex(of: key)
        // A feed's pages are the server's length: no number is computed from the page size.
        let subject = key.phrase(
            number: backend.pageFormat == .feed ? nil : start.map { PlaceConverter.page(forIndex: $0, pageSize: pageSize) })
        var attributes = [Attribute.kind: "page"]
        if let start { attributes[Attribute.startIndex] = String(start) }
        // Decoded once per fetched body, before it is stored: a body that does not decode is
        // never cached, and callers sharing the transfer share the page.
        let validate: CachedHTTPLoader.Validator = { [self] body, headers in
            guard let page = try? decode(body, headers: headers, url: url, key: key, start: start) else { return nil }
            return CachedHTTPLoader.Accepted(value: page)
        }
        let result = try await load(
            url, cacheKey: cacheKey, policy: cachePolicy, priority: priority, subject: subject, page: key,
            keptHeaders: keptHeaders, attributes: attributes, context: context, recorder: recorder, validate: validate)
        switch result {
        case .cached(let entry, let stale):
            let cachedStart = entry.metadata.attributes[Attribute.startIndex].flatMap { Int($0) }
            do {
                var page = try decode(
                    entry.data, headers: PageCacheStore.headers(of: entry), url: url, key: key, start: cachedStart)
                page.isFromCache = true
                page.staleReason = stale
                // Used as it is, whatever its age: say when it is past its expiry, so a
                // feed can revalidate it in the background.
                let usedAsIs = [.cacheElseLoad, .cacheOnly].contains(loader.effective(cachePolicy))
                if usedAsIs { page.isExpired = await loader.isOutdated(entry, forKey: cacheKey, in: store) }
                return page
            } catch {
                // A cached body this description cannot read (its mapping changed since):
                // drop it and ask the server, unless offline.
                store.remove(forKey: cacheKey)
                guard loader.effective(cachePolicy) != .cacheOnly else { throw error }
                logger.debug("dropped an undecodable cached page", metadata: ["url": "\(URLUserInfo.removed(from: url.absoluteString))", "error": "\(error)"])
                return try await loadPage(key, cachePolicy: .reload, priority: priority, context: context, recorder: recorder)
            }
        case .network(let body, let headers, let value):
            if let page = value as? Page { return page }
            // The validator refused the body: decode it again for the error.
            return try decode(body, headers: headers, url: url, key: key, start: start)
        case .status(let response):
            let error = endStatusError(response, subject: subject, page: key) ?? statusError(response, subject: subject, page: key)
            if error.code == .pageOutOfRange { memory.withLock { $0.pastTheEnd[key] = error } }
            throw error
        }
    }

    /// The headers a cached page is rebuilt from: `Link`, the total's header, and a feed's
    /// `Content-Type`.
    private var keptHeaders: [String] {
        let pageCountHeaders = backend.endSignals.compactMap { signal -> String? in
            if case .pageCountHeader(let name) = signal { return name }
            return nil
        }
        // A feed's format is known by its Content-Type first: a cached page keeps it.
        let feedHeaders = backend.pageFormat == .feed ? ["Content-Type"] : []
        return ["Link"] + (backend.total.header.map { [$0] } ?? []) + pageCountHeaders + feedHeaders
    }

    /// Posts before page `key`: from the key (page, offset, first page) or from walking.
    func startIndex(of key: PageKey) -> Int? {
        decoder.startIndex(of: key) ?? memory.withLock { $0.startIndexByKey[key] }
    }

    /// Decodes a page and remembers what it teaches: where the next page starts, its posts.
    private func decode(_ body: Data, headers: HTTPHeaders, url: URL, key: PageKey, start: Int?)
        throws(RepositoryError) -> Page
    {
        let start = start ?? startIndex(of: key)
        let page = try decoder.decode(body: body, headers: headers, url: url, key: key, startIndex: start)
        let report = memory.withLock { memory in
            // A walked page's own start (from its cached copy's attribute) is kept too:
            // its posts' numbers are counted from it.
            if let start, decoder.startIndex(of: key) == nil { memory.startIndexByKey[key] = start }
            if let start, let next = page.nextKey, decoder.startIndex(of: next) == nil {
                memory.startIndexByKey[next] = PlaceConverter.saturatingAdd(start, page.posts.count)
            }
            return !page.decodingProblems.isEmpty && memory.reportedProblems.insert(key).inserted
        }
        if report {
            let shown = page.decodingProblems.prefix(3).joined(separator: "; ")
            let more = page.decodingProblems.count > 3 ? "; and \(page.decodingProblems.count - 3) more" : ""
            logger.warning("\(key.phrase(number: page.number)) (\(URLUserInfo.removed(from: url.absoluteString))): \(shown)\(more)")
        }
        for post in page.posts { recentPosts.setObject(post, forKey: post.id) }
        return page
    }
}
