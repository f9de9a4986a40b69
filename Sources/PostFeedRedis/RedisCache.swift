import PostFeedCache
import Foundation
import Synchronization

/// The shared cache tier: entries in Redis, behind the disk layer, shared by every
/// instance of a service (memory → disk → Redis → network).
///
/// - **Same entries as on disk**: a value is the disk cache's self-validating entry (body,
///   metadata with validators and freshness, CRC-32C checksums). A value that fails
///   verification is deleted and reported as a miss. Its TTL is the time to `expiresAt`
///   plus ``Configuration/staleWindow``; entries over ``Configuration/sizeCap`` stay local.
/// - **Single-key commands only** (`GET`, `SET … PX [NX]`, `DEL`, a one-key `EVAL`), so a
///   Redis Cluster works unchanged.
/// - **Never in the way**: every call runs on the tier's own thread with a short timeout
///   (default 50 ms); a down, slow or full Redis makes calls return `nil`/`false` at once
///   (counted in ``statistics()``, one warning in the cache's life) and the tier is tried
///   again after a growing delay.
/// - **One origin fetch across instances**: ``entryOrLease(forKey:notStoredBefore:afterMiss:)``.
///
/// The async methods are for async code. The synchronous ``DataCaching`` methods block the
/// calling thread (at most about the timeout): call them from a write job or a thread of
/// your own, not from a task.
///
/// ```swift
/// let shared = RedisCache(configuration: .init(address: try RedisAddress(parsing: "redis://127.0.0.1:6379")))
/// switch await shared.entryOrLease(forKey: key) {
/// case .hit(let entry): use(entry.data)
/// case .lease(let lease): let entry = fetch(); await shared.share(entry, forKey: key); await shared.release(lease)
/// case .fetch: use(fetch())
/// }
/// ```
public final class RedisCache: Sendable {
    /// The settings it was created with.
    public let configuration: Configuration
    let link: RedisLink

    /// A tier on `configuration.address`; it connects on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.link = RedisLink(
            address: configuration.address, timeout: configuration.timeout, reconnectDelay: configuration.reconnectDelay,
            maxReconnectDelay: configuration.maxReconnectDelay, warn: configuration.warningHandler)
    }

    /// What the tier did so far.
    public func statistics() -> Statistics { link.counters.withLock { $0 } }

    /// The Redis key of `key`'s entry: the namespace and the key's SHA-256, as the disk
    /// cache names its files.
    public func redisKey(forKey key: String) -> String { configuration.namespace + CacheLayout.name(forKey: key) }

    /// The Redis key of `key`'s fetch lease.
    public func leaseKey(forKey key: String) -> String { configuration.namespace + "lease:" + CacheLayout.name(forKey: key) }

    // MARK: Entries

    /// `key`'s entry, verified; `nil` when there is none, it was corrupt (then it is
    /// deleted), it was stored before `notStoredBefore` (see
    /// ``entryOrLease(forKey:notStoredBefore:afterMiss:)``) or Redis cannot answer now.
    public func lookup(forKey key: String, notStoredBefore: Date? = nil) async -> DiskCacheEntry? {
        let redisKey = redisKey(forKey: key)
        let reply = await link.run([Data("GET".utf8), Data(redisKey.utf8)])
        guard case .success(let value) = reply else { return nil }
        switch read(value, key: key, notStoredBefore: notStoredBefore) {
        case .entry(let entry): return entry
        case .corrupt: _ = await link.run([Data("DEL".utf8), Data(redisKey.utf8)])
        case .absent, .outdated: break
        }
        return nil
    }

    /// Stores `entry` under `key` with its TTL; `false` when it is over the size cap or
    /// Redis cannot take it now (counted, never thrown).
    @discardableResult
    public func share(_ entry: DiskCacheEntry, forKey key: String) async -> Bool {
        guard let command = try? setCommand(entry.data, metadata: entry.metadata, forKey: key) else { return false }
        let result = await link.run(command)
        return noteWrite(result)
    }

    /// What a `GET` reply holds for a reader.
    enum ReadValue {
        /// A verified entry, stored at or after the reader's `notStoredBefore`.
        case entry(DiskCacheEntry)
        /// No value (or not a string).
        case absent
        /// A verified entry stored before the reader's `notStoredBefore`: absent for it.
        case outdated
        /// A value that failed verification: the caller deletes it.
        case corrupt
    }

    /// Reads the reply to a `GET` for a reader that wants nothing stored before
    /// `notStoredBefore`; counts a hit, or a miss (and why: corrupt, outdated), unless
    /// `counted` is `false` (a second look within one lookup).
    func read(_ reply: RedisReply, key: String, notStoredBefore: Date?, counted: Bool = true) -> ReadValue {
        let value: ReadValue
        if case .string(let data) = reply {
            if let (entry, _) = try? EntryCodec.decode(data, expectedName: CacheLayout.name(forKey: key)) {
                let outdated = notStoredBefore.map { entry.metadata.storedAt < $0 } ?? false
                value = outdated ? .outdated : .entry(entry)
            } else {
                value = .corrupt
            }
        } else {
            value = .absent
        }
        guard counted else { return value }
        link.counters.withLock { counters in
            switch value {
            case .entry: counters.hits += 1
            case .absent: counters.misses += 1
            case .outdated:
                counters.misses += 1
                counters.outdated += 1
            case .corrupt:
                counters.misses += 1
                counters.corruptRemoved += 1
            }
        }
        return value
    }

    /// `SET key value PX ttl` for an entry, or `nil`/throws when it stays local.
    func setCommand(_ data: Data, metadata: CacheEntryMetadata, forKey key: String) throws(RedisCacheError) -> [Data] {
        let now = configuration.now()
        var metadata = metadata
        metadata.key = key
        if metadata.expiresAt == nil { metadata.expiresAt = now.addingTimeInterval(Self.seconds(configuration.defaultTTL)) }
        let trailer: Data
        do {
            trailer = try EntryCodec.trailer(bodyLength: data.count, bodyChecksum: EntryCodec.checksum(data), metadata: metadata)
        } catch {
            throw RedisCacheError(.failed, "cannot encode the entry for \(key): \(error)")
        }
        guard data.count + trailer.count <= configuration.sizeCap else {
            link.counters.withLock { $0.oversize += 1 }
            throw RedisCacheError(.tooLarge, "the entry for \(key) is over the shared tier's size cap (\(configuration.sizeCap) bytes); it stays local")
        }
        let fresh = (metadata.expiresAt ?? now).timeIntervalSince(now)
        let ttl = max(1, fresh + Self.seconds(configuration.staleWindow))
        let milliseconds = ttl >= 1e12 ? Int64(1e12) : Int64(ttl * 1000)
        return [Data("SET".utf8), Data(redisKey(forKey: key).utf8), data + trailer, Data("PX".utf8), Data(String(milliseconds).utf8)]
    }

    /// Counts a write's result; whether it was stored.
    func noteWrite(_ result: Result<RedisReply, RedisFailure>) -> Bool {
        guard case .success = result else { return false }
        link.counters.withLock { $0.writes += 1 }
        return true
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
