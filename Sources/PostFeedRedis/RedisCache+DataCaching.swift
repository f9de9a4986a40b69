import PostFeedCache
import Foundation

/// The shared tier as one more ``DataCaching`` layer. These calls block the calling thread
/// for at most about the timeout (they run on the tier's thread): use them from a write job
/// (``performWrite(_:)``) or a thread of your own; async code uses
/// ``RedisCache/lookup(forKey:)`` and ``RedisCache/share(_:forKey:)``.
extension RedisCache: DataCaching {
    /// `key`'s verified entry, or `nil` (none, corrupt and deleted, or Redis cannot answer).
    public func entry(forKey key: String) -> DiskCacheEntry? {
        let redisKey = Data(redisKey(forKey: key).utf8)
        guard case .success(let reply) = link.runBlocking([Data("GET".utf8), redisKey]) else { return nil }
        switch read(reply, key: key, notStoredBefore: nil) {
        case .entry(let entry): return entry
        case .corrupt: _ = link.runBlocking([Data("DEL".utf8), redisKey])
        case .absent, .outdated: break
        }
        return nil
    }

    /// Stores the entry with its TTL.
    /// - Throws: ``RedisCacheError`` `.tooLarge` (over the size cap), `.unavailable`, `.full`.
    public func store(_ data: Data, metadata: CacheEntryMetadata, forKey key: String) throws {
        let command = try setCommand(data, metadata: metadata, forKey: key)
        let result = link.runBlocking(command)
        if noteWrite(result) { return }
        if case .failure(let failure) = result { throw error(failure, key: key) }
    }

    /// Reads the file into memory, stores it and deletes the file.
    public func storeFile(at temporaryFile: URL, metadata: CacheEntryMetadata, forKey key: String) throws {
        defer { try? FileManager.default.removeItem(at: temporaryFile) }
        let data = try Data(contentsOf: temporaryFile)
        try store(data, metadata: metadata, forKey: key)
    }

    /// Reads the entry, changes its metadata and writes it back (the last writer wins).
    public func updateMetadata(forKey key: String, _ update: (inout CacheEntryMetadata) -> Void) throws {
        guard var entry = entry(forKey: key) else {
            throw RedisCacheError(.entryNotFound, "no shared entry for \(key) to update")
        }
        update(&entry.metadata)
        try store(entry.data, metadata: entry.metadata, forKey: key)
    }

    /// Deletes `key`'s entry.
    public func removeEntry(forKey key: String) {
        _ = link.runBlocking([Data("DEL".utf8), Data(redisKey(forKey: key).utf8)])
    }

    /// Not done by the shared tier: clearing it would need a scan over every node.
    /// - Throws: ``RedisCacheError`` `.unsupported`, always.
    public func removeAll() throws {
        throw RedisCacheError(
            .unsupported,
            "the shared tier at \(configuration.address) is not cleared by PostFeed; its entries expire by TTL (or run redis-cli --scan --pattern '\(configuration.namespace)*' | xargs redis-cli del)")
    }

    /// Runs `write` on the tier's thread after every job submitted before it.
    public func performWrite<T: Sendable, E: Error>(_ write: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result = await link.perform { Result { () throws(E) -> T in try write() } }
        return try result.get()
    }

    /// Returns when every job submitted before it is done.
    public func flush() async {
        await link.perform {}
    }

    private func error(_ failure: RedisFailure, key: String) -> RedisCacheError {
        switch failure {
        case .unavailable(let message): RedisCacheError(.unavailable, "shared cache \(configuration.address) unavailable for \(key): \(message)")
        case .full(let message): RedisCacheError(.full, "shared cache \(configuration.address) is full, \(key) stays local: \(message)")
        case .failed(let message): RedisCacheError(.failed, "shared cache \(configuration.address) refused \(key): \(message)")
        }
    }
}
