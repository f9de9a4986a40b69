import Foundation
import PostFeedCache
import PostFeedHTTP
import Synchronization

/// One backend's page and post responses in a ``DataCaching`` cache, keyed by their full
/// request URL, with what invalidation needs.
///
/// **Invalidation.** `DataCaching` cannot list its keys, so two small entries beside the
/// pages do the bookkeeping, both keyed by the backend's ``BackendDescription/identity``:
/// - a *generation* token, stamped into every entry's attributes. An entry whose stamp is
///   not the current token is ignored. ``invalidate()`` replaces the token, so every entry
///   of this backend is dead at once, in this process and in any other sharing the cache;
/// - an *index* of the keys stored, so ``invalidate()`` can also delete those entries and
///   give their space back. Entries the index missed (two processes racing to add a key)
///   are dead anyway and leave by the disk cache's LRU trim or `prune`.
///
/// The index is kept in chunks of at most ``indexChunkCapacity`` keys (the first under the
/// index key itself, the next ones under `"<index key> #1"`, `#2`, …), and a new key is
/// appended to the last chunk only. Rewriting one index of every key on each new page made
/// a long scroll quadratic: at 5,000 pages each page decoded, re-encoded and synced
/// ~400 KB of JSON (`postfeed bench list`).
///
/// If the generation entry itself disappears (trimmed, cache cleared) a new token is made,
/// which only costs refetching: it errs on the side of not serving old pages.
///
/// **Shared tier.** With a shared tier (``SharedDataCaching``, e.g. `PostFeedRedis`'s `RedisCache`) behind it, pages and posts another instance
/// fetched are read from Redis on a disk miss. Redis copies carry no generation, so an
/// invalidation records its time instead: in the new generation entry (every process on
/// this cache root), in memory, and in Redis (``SharedDataCaching/recordInvalidation(ofScope:at:)``,
/// every instance); a shared page stored before the latest of these is a miss.
final class PageCacheStore: ResponseCache {
    let cache: any DataCaching
    let identity: String
    /// The shared tier behind the disk cache (Redis), or `nil`.
    let shared: (any SharedDataCaching)?
    private let generationKey: String
    private let indexKey: String
    /// Keys this process already knows to be in the index; its lock also serializes
    /// index writes and the making of a generation.
    private let memo = Mutex(Memo())

    private struct Memo {
        var indexedKeys: Set<String> = []
        /// The index chunk this process appends to, once found.
        var lastIndexChunk: Int?
        /// When this process last invalidated the pages (kept here too in case the
        /// generation entry could not be written).
        var invalidatedAt: Date?
        /// The cache root's and Redis's latest invalidations as last read, and when
        /// (``sharedEntriesNotBefore()``); cleared by this process's own ``invalidate()``.
        var remembered: (root: Date?, everywhere: Date?, readAt: ContinuousClock.Instant)?
    }

    /// How long ``sharedEntriesNotBefore()`` reuses the invalidations it read from the cache
    /// root (a disk read) and Redis (a `GET`) instead of reading them on every page lookup:
    /// another instance's refresh is seen within this time; this process's own at once.
    static let invalidationsRememberedFor = Duration.seconds(1)

    /// Keys per index chunk.
    static let indexChunkCapacity = 128

    static let generationAttribute = "postfeed.generation"
    /// On the generation entry: when ``invalidate()`` made it (seconds since 1970).
    static let invalidatedAtAttribute = "postfeed.invalidatedAt"
    static let headerPrefix = "header."

    let now: @Sendable () -> Date

    init(cache: any DataCaching, identity: String, now: @escaping @Sendable () -> Date, shared: (any SharedDataCaching)? = nil) {
        self.cache = cache
        self.shared = shared
        self.now = now
        self.identity = identity
        generationKey = "postfeed.page-generation \(identity)"
        indexKey = "postfeed.page-index \(identity)"
    }

    // MARK: Reading

    /// The live entry for `key`: present and stamped with the current generation.
    func entry(forKey key: String) -> DiskCacheEntry? {
        guard let entry = cache.entry(forKey: key),
            entry.metadata.attributes[Self.generationAttribute] == currentGeneration()
        else { return nil }
        return entry
    }

    /// The response headers kept with an entry (`Link`, the total header).
    static func headers(of entry: DiskCacheEntry) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in entry.metadata.attributes.sorted(by: { $0.key < $1.key })
        where name.hasPrefix(headerPrefix) {
            headers.add(name: String(name.dropFirst(headerPrefix.count)), value: value)
        }
        return headers
    }

    /// Every live entry in the index, in the order stored.
    func storedEntries() -> [DiskCacheEntry] {
        let generation = currentGeneration()
        return indexedKeys().compactMap { key in
            guard let entry = cache.entry(forKey: key),
                entry.metadata.attributes[Self.generationAttribute] == generation
            else { return nil }
            return entry
        }
    }

    // MARK: Writing (ResponseCache, for CachedHTTPLoader)

    var name: String { "pages \(identity)" }

    func liveEntry(forKey key: String) -> DiskCacheEntry? { entry(forKey: key) }

    /// The current generation token; when there is none yet (a new cache), it is made on
    /// the write queue, like every write of this store.
    func generation() async -> String? {
        if let token = readGeneration() { return token }
        return await cache.performWrite { [self] in currentGeneration() }
    }

    /// Stores a body stamped with the current generation, and indexes its key, as one job
    /// on the cache's write queue. A body whose load started under another generation
    /// (`generation`, read as it started; an ``invalidate()`` came since) is not stored:
    /// ``GenerationChanged``.
    func store(_ body: ResponseBody, metadata: CacheEntryMetadata, forKey key: String, generation: String?) async throws {
        try await cache.performWrite { [self] () throws(any Error) in
            let current = currentGeneration()
            if generation != current { throw GenerationChanged() }
            var metadata = metadata
            metadata.attributes[Self.generationAttribute] = current
            switch body {
            case .data(let data): try cache.store(data, metadata: metadata, forKey: key)
            case .download(let folder, let name): try cache.storeDownload(named: name, in: folder, metadata: metadata, forKey: key)
            }
            addToIndex(key)
        }
    }

    func refresh(forKey key: String, revalidated: CacheEntryMetadata, to refreshed: CacheEntryMetadata) async {
        await refresh(forKey: key, revalidated: revalidated, to: refreshed, in: cache)
    }

    /// A page that could not be stored is still returned; only its caching failed (the
    /// disk cache warns once about a full or read-only disk itself).
    func writeFailed(_ error: any Error, key: String) {}

    func remove(forKey key: String) {
        cache.removeEntry(forKey: key)
    }

    func recordedTotalBytes() -> Int? { (cache as? DiskCache)?.recordedTotalBytes() }

    /// Kills every entry of this backend (new generation), then deletes the indexed ones;
    /// shared pages stored before now become misses here (see the type's **Shared tier**).
    /// Returns the time recorded, for ``shareInvalidation(at:)``.
    @discardableResult
    func invalidate() -> Date {
        let now = now()
        writeGeneration(UUID().uuidString, invalidatedAt: now)
        memo.withLock { memo in
            let chunks = readIndexChunks()
            for key in chunks.joined() { cache.removeEntry(forKey: key) }
            for number in chunks.indices { cache.removeEntry(forKey: indexChunkKey(number)) }
            memo = Memo()
            memo.invalidatedAt = now
        }
        return now
    }

    /// Tells every instance on the shared tier that this backend's pages stored before
    /// `date` are out of date (nothing without a shared tier; a Redis that cannot take it
    /// is counted there, and this process still applies it).
    func shareInvalidation(at date: Date) async {
        await shared?.recordInvalidation(ofScope: identity, at: date)
    }

    /// The latest invalidation of this backend's pages: this process's, this cache root's
    /// (the generation entry's) and every instance's (Redis).
    ///
    /// Asked on every page lookup with a shared tier: the cache root's and Redis's are read
    /// at most once per ``invalidationsRememberedFor`` (one disk read and one `GET` then,
    /// none in between); this process's own refresh applies at once (it is kept in memory
    /// and clears what was remembered).
    func sharedEntriesNotBefore() async -> Date? {
        guard let shared else { return nil }
        let started = ContinuousClock.now
        let (local, remembered) = memo.withLock { memo in
            (memo.invalidatedAt, memo.remembered.flatMap { started - $0.readAt < Self.invalidationsRememberedFor ? $0 : nil })
        }
        if let remembered { return [local, remembered.root, remembered.everywhere].compactMap { $0 }.max() }
        let root = cache.entry(forKey: generationKey)?.metadata.attributes[Self.invalidatedAtAttribute]
            .flatMap { TimeInterval($0) }.map { Date(timeIntervalSince1970: $0) }
        let everywhere = await shared.lastInvalidation(ofScope: identity)
        // Read before a refresh of this process that ran meanwhile: that refresh (in
        // `invalidatedAt`, never earlier than `local`) is later than both, so keeping them
        // hides nothing.
        let current = memo.withLock { memo in
            memo.remembered = (root, everywhere, started)
            return memo.invalidatedAt
        }
        return [current, root, everywhere].compactMap { $0 }.max()
    }

    // MARK: Generation

    func currentGeneration() -> String {
        if let token = readGeneration() { return token }
        // None yet, or lost: start a new one (see the type's documentation). Under the lock,
        // so two tasks of this process never make two.
        return memo.withLock { _ in
            if let token = readGeneration() { return token }
            let token = UUID().uuidString
            writeGeneration(token)
            return token
        }
    }

    private func readGeneration() -> String? {
        guard let entry = cache.entry(forKey: generationKey),
            let token = String(data: entry.data, encoding: .utf8), !token.isEmpty
        else { return nil }
        return token
    }

    private func writeGeneration(_ token: String, invalidatedAt: Date? = nil) {
        var attributes = ["postfeed.kind": "generation"]
        if let invalidatedAt { attributes[Self.invalidatedAtAttribute] = String(invalidatedAt.timeIntervalSince1970) }
        let metadata = CacheEntryMetadata(
            key: generationKey, expiresAt: .distantFuture, storedAt: now(), attributes: attributes)
        try? cache.store(Data(token.utf8), metadata: metadata, forKey: generationKey)
    }

    // MARK: Index

    /// Every indexed key once, in the order stored.
    private func indexedKeys() -> [String] {
        var seen = Set<String>()
        return readIndexChunks().joined().filter { seen.insert($0).inserted }
    }

    /// The index chunks, from the first to the last present.
    private func readIndexChunks() -> [[String]] {
        var chunks: [[String]] = []
        while let keys = readIndexChunk(chunks.count) { chunks.append(keys) }
        return chunks
    }

    private func indexChunkKey(_ number: Int) -> String {
        number == 0 ? indexKey : "\(indexKey) #\(number)"
    }

    /// Chunk `number`'s keys; `nil` when the chunk is missing or unreadable.
    private func readIndexChunk(_ number: Int) -> [String]? {
        guard let entry = cache.entry(forKey: indexChunkKey(number)) else { return nil }
        return (try? JSONDecoder().decode([String].self, from: entry.data)) ?? []
    }

    /// Appends `key` to the last index chunk, starting a new chunk when that one is full.
    /// A chunk another process filled meanwhile is skipped. Costs one read and one write of
    /// at most ``indexChunkCapacity`` keys; the first call in a process also reads the whole
    /// index once, so keys indexed by earlier runs are not added again.
    private func addToIndex(_ key: String) {
        memo.withLock { memo in
            if memo.lastIndexChunk == nil {
                let chunks = readIndexChunks()
                memo.indexedKeys.formUnion(chunks.joined())
                memo.lastIndexChunk = max(0, chunks.count - 1)
            }
            guard !memo.indexedKeys.contains(key) else { return }
            var number = memo.lastIndexChunk ?? 0
            var keys = readIndexChunk(number) ?? []
            while keys.count >= Self.indexChunkCapacity, !keys.contains(key) {
                number += 1
                keys = readIndexChunk(number) ?? []
            }
            memo.lastIndexChunk = number
            if !keys.contains(key) {
                keys.append(key)
                let chunkKey = indexChunkKey(number)
                let metadata = CacheEntryMetadata(
                    key: chunkKey, expiresAt: .distantFuture, storedAt: now(), attributes: ["postfeed.kind": "index"])
                guard let data = try? JSONEncoder().encode(keys),
                    (try? cache.store(data, metadata: metadata, forKey: chunkKey)) != nil
                else { return }
            }
            memo.indexedKeys.insert(key)
        }
    }
}
