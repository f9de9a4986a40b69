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
/// If the generation entry itself disappears (trimmed, cache cleared) a new token is made,
/// which only costs refetching: it errs on the side of not serving old pages.
final class PageCacheStore: Sendable {
    let cache: any DataCaching
    let identity: String
    private let generationKey: String
    private let indexKey: String
    /// Keys this process already knows to be in the index; its lock also serializes
    /// index writes and the making of a generation.
    private let memo = Mutex(Memo())

    private struct Memo {
        var indexedKeys: Set<String> = []
    }

    static let generationAttribute = "postfeed.generation"
    static let headerPrefix = "header."

    let now: @Sendable () -> Date

    init(cache: any DataCaching, identity: String, now: @escaping @Sendable () -> Date) {
        self.cache = cache
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
        return readIndex().compactMap { key in
            guard let entry = cache.entry(forKey: key),
                entry.metadata.attributes[Self.generationAttribute] == generation
            else { return nil }
            return entry
        }
    }

    // MARK: Writing

    /// Stores a `2xx` response under `key` unless it says `no-store`. Keeps `keptHeaders`
    /// (all their values, joined by `, `) and `attributes`. A cache that refuses the write
    /// costs only the caching: the error is not passed on.
    func store(
        _ response: HTTPResponse, forKey key: String, keptHeaders: [String], attributes: [String: String], now: Date
    ) {
        guard case .expires(let expiresAt) = CacheFreshness.of(response.headers, now: now) else { return }
        var all = attributes
        all[Self.generationAttribute] = currentGeneration()
        for name in keptHeaders {
            let values = response.headers.values(for: name)
            if !values.isEmpty { all[Self.headerPrefix + name.lowercased()] = values.joined(separator: ", ") }
        }
        let metadata = CacheEntryMetadata(
            key: key, url: response.requestURL.absoluteString, etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"], contentType: response.headers["Content-Type"],
            expiresAt: expiresAt, storedAt: now, attributes: all)
        do {
            try cache.store(response.body, metadata: metadata, forKey: key)
            addToIndex(key)
        } catch {
            // The page is still returned; only its caching failed.
        }
    }

    /// After a `304`: a new expiry from the `304`'s own headers, and its validators when it
    /// sent new ones.
    func refresh(forKey key: String, with headers: HTTPHeaders, now: Date) {
        let freshness = CacheFreshness.of(headers, now: now)
        try? cache.updateMetadata(forKey: key) { metadata in
            switch freshness {
            case .expires(let date): metadata.expiresAt = date
            case .doNotStore: metadata.expiresAt = now
            }
            if let etag = headers["ETag"] { metadata.etag = etag }
            if let lastModified = headers["Last-Modified"] { metadata.lastModified = lastModified }
        }
    }

    func remove(forKey key: String) {
        cache.removeEntry(forKey: key)
    }

    /// Kills every entry of this backend (new generation), then deletes the indexed ones.
    func invalidate() {
        writeGeneration(UUID().uuidString)
        let keys = readIndex()
        for key in keys { cache.removeEntry(forKey: key) }
        cache.removeEntry(forKey: indexKey)
        memo.withLock { $0.indexedKeys.removeAll() }
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

    private func writeGeneration(_ token: String) {
        let metadata = CacheEntryMetadata(
            key: generationKey, expiresAt: .distantFuture, storedAt: now(), attributes: ["postfeed.kind": "generation"])
        try? cache.store(Data(token.utf8), metadata: metadata, forKey: generationKey)
    }

    // MARK: Index

    private func readIndex() -> [String] {
        guard let entry = cache.entry(forKey: indexKey),
            let keys = try? JSONDecoder().decode([String].self, from: entry.data)
        else { return [] }
        return keys
    }

    private func addToIndex(_ key: String) {
        memo.withLock { memo in
            guard !memo.indexedKeys.contains(key) else { return }
            var keys = readIndex()
            if !keys.contains(key) {
                keys.append(key)
                let metadata = CacheEntryMetadata(
                    key: indexKey, expiresAt: .distantFuture, storedAt: now(), attributes: ["postfeed.kind": "index"])
                guard let data = try? JSONEncoder().encode(keys),
                    (try? cache.store(data, metadata: metadata, forKey: indexKey)) != nil
                else { return }
            }
            memo.indexedKeys.insert(key)
        }
    }
}
