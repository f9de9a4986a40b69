import Foundation
import PostFeedCache

/// Where `CachedHTTPLoader` keeps one kind of response: a ``DataCaching`` cache seen
/// through what its owner adds. The page cache stamps a generation into every entry and
/// keeps an index of its keys (``PageCacheStore``); the image cache is the disk layer as
/// it is, or nothing for a memory-only pipeline (``PlainResponseCache``).
protocol ResponseCache: Sendable {
    /// Tells this cache's entries apart from another's in the loader's bookkeeping
    /// (flights, responses fetched this run).
    var name: String { get }
    /// The entry to serve for `key`, or `nil` (none, or no longer valid for the owner).
    func liveEntry(forKey key: String) -> DiskCacheEntry?
    /// What the cache's live entries belong to now (the page cache's generation token), read
    /// when a load starts; `nil` for a cache that is never invalidated as a whole.
    func generation() async -> String?
    /// Stores a body, from memory or adopted from a file on the cache's file system, with
    /// the owner's own attributes added, on the cache's write queue; returns once stored.
    /// Throws ``GenerationChanged`` without storing when `generation` (read as the load
    /// started) is no longer the cache's.
    func store(_ body: ResponseBody, metadata: CacheEntryMetadata, forKey key: String, generation: String?) async throws
    /// After a `304` to a request made from the entry described by `revalidated`: its new
    /// expiry, validators and freshness headers from `refreshed`, on the write queue. Only
    /// over that very entry: when another writer stored a newer body meanwhile (another
    /// `storedAt` or `ETag`), nothing is written.
    func refresh(forKey key: String, revalidated: CacheEntryMetadata, to refreshed: CacheEntryMetadata) async
    /// Removes `key`'s entry (a body its owner can no longer read).
    func remove(forKey key: String)
    /// A write failed (read-only or full disk): the response is still used, uncached.
    func writeFailed(_ error: any Error, key: String)
    /// The shared tier behind this cache (Redis), or `nil`.
    var shared: (any SharedDataCaching)? { get }
    /// Shared-tier entries stored before this time are misses for this cache (the page
    /// cache's last invalidation, here or in any instance); `nil` takes any.
    func sharedEntriesNotBefore() async -> Date?
    /// The disk layer's bytes as its size ledger records them, for the size gauge; `nil`
    /// when there is no disk layer or it keeps no ledger.
    func recordedTotalBytes() -> Int?
}

extension ResponseCache {
    /// No shared tier unless the cache names one.
    var shared: (any SharedDataCaching)? { nil }

    /// Any shared entry will do unless the cache says otherwise.
    func sharedEntriesNotBefore() async -> Date? { nil }

    /// Writes `body` into `cache` as one job on its write queue: `prepare` completes the
    /// metadata and `afterwards` follows the write, both on the queue too.
    func store(
        _ body: ResponseBody, metadata: CacheEntryMetadata, forKey key: String, in cache: any DataCaching,
        preparing prepare: @escaping @Sendable (inout CacheEntryMetadata) -> Void = { _ in },
        then afterwards: @escaping @Sendable () -> Void = {}
    ) async throws {
        try await cache.performWrite { () throws(any Error) in
            var metadata = metadata
            prepare(&metadata)
            switch body {
            case .data(let data): try cache.store(data, metadata: metadata, forKey: key)
            case .download(let folder, let name): try cache.storeDownload(named: name, in: folder, metadata: metadata, forKey: key)
            }
            afterwards()
        }
    }

    /// Updates `key`'s expiry, validators and freshness headers in `cache`, on its write
    /// queue, if the entry there is still the one revalidated (see
    /// ``ResponseCache/refresh(forKey:revalidated:to:)``).
    func refresh(
        forKey key: String, revalidated: CacheEntryMetadata, to refreshed: CacheEntryMetadata, in cache: any DataCaching
    ) async {
        await cache.performWrite {
            // Checked inside the update, which reapplies it if a writer replaces the entry
            // meanwhile. (A newer entry is then rewritten as it is: no read beforehand, which
            // would count as a cache hit in `cache stats`.)
            try? cache.updateMetadata(forKey: key) { stored in
                guard Self.isSameEntry(stored, as: revalidated) else { return }
                stored.expiresAt = refreshed.expiresAt
                stored.etag = refreshed.etag
                stored.lastModified = refreshed.lastModified
                for name in CachedHTTPLoader.freshnessHeaders {
                    let attribute = PageCacheStore.headerPrefix + name.lowercased()
                    stored.attributes[attribute] = refreshed.attributes[attribute]
                }
            }
        }
    }

    /// Whether `stored` is the entry `revalidated` describes: stored at the same moment with
    /// the same `ETag`.
    static func isSameEntry(_ stored: CacheEntryMetadata, as revalidated: CacheEntryMetadata) -> Bool {
        stored.storedAt == revalidated.storedAt && stored.etag == revalidated.etag
    }
}

/// A load's body was not stored: the cache was invalidated (a new generation) while it
/// was on its way. Not a failure worth reporting; the body is still returned to its callers.
struct GenerationChanged: Error {}

/// A response body as fetched: in memory, or streamed to the file `name` in a download
/// folder, which the loader owns until a cache adopts it (by name, through the folder).
enum ResponseBody: Sendable {
    case data(Data)
    case download(DownloadFolder, name: String)
}

/// A memory-only pipeline has nowhere to store a body (not reported: it is no failure).
struct NoDiskLayer: Error {}

/// A ``DataCaching`` cache used as it is (the image disk layer); `nil` keeps nothing.
struct PlainResponseCache: ResponseCache {
    let name: String
    let cache: (any DataCaching)?
    /// The shared tier behind `cache`, if any.
    let shared: (any SharedDataCaching)?
    /// Called for each failed write.
    let onWriteFailure: @Sendable (any Error, String) -> Void

    init(
        name: String, cache: (any DataCaching)?, shared: (any SharedDataCaching)? = nil,
        onWriteFailure: @escaping @Sendable (any Error, String) -> Void
    ) {
        self.name = name
        self.cache = cache
        self.shared = shared
        self.onWriteFailure = onWriteFailure
    }

    func liveEntry(forKey key: String) -> DiskCacheEntry? { cache?.entry(forKey: key) }

    /// Images are never invalidated as a whole.
    func generation() async -> String? { nil }

    func store(_ body: ResponseBody, metadata: CacheEntryMetadata, forKey key: String, generation: String?) async throws {
        guard let cache else { throw NoDiskLayer() }
        try await store(body, metadata: metadata, forKey: key, in: cache)
    }

    func refresh(forKey key: String, revalidated: CacheEntryMetadata, to refreshed: CacheEntryMetadata) async {
        guard let cache else { return }
        await refresh(forKey: key, revalidated: revalidated, to: refreshed, in: cache)
    }

    func remove(forKey key: String) { cache?.removeEntry(forKey: key) }

    func recordedTotalBytes() -> Int? { (cache as? DiskCache)?.recordedTotalBytes() }

    func writeFailed(_ error: any Error, key: String) {
        if cache != nil { onWriteFailure(error, key) }
    }
}
