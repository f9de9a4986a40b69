import Foundation

/// The shared cache tier's contract: entries every instance of a service sees, behind the
/// disk layer (memory → disk → shared → network), with a fetch lease so that one instance
/// fetches what none has. `PostFeedRedis`'s `RedisCache` is the one implementation; the
/// core (`PostFeed`) talks to the tier only through this protocol, so a service that needs
/// no shared tier links no Redis client.
///
/// What every implementation must keep:
/// - **Thread-safe**: any method may be called from any task at any time.
/// - **Never in the way**: a tier that is down or slow answers at once with a miss
///   (`nil`, `false`, ``SharedCacheLookup/fetch``); nothing here throws or waits long.
/// - **Verified entries**: a value that fails verification is a miss (and is deleted).
///
/// ```swift
/// switch await shared.entryOrLease(forKey: key, notStoredBefore: nil, afterMiss: false) {
/// case .hit(let entry): use(entry.data)
/// case .lease(let lease): let entry = fetch(); await shared.share(entry, forKey: key); await shared.release(lease)
/// case .fetch: use(fetch())
/// }
/// ```
public protocol SharedDataCaching: AnyObject, Sendable {
    /// `key`'s verified entry; `nil` when there is none, it was stored before
    /// `notStoredBefore`, or the tier cannot answer now.
    func lookup(forKey key: String, notStoredBefore: Date?) async -> DiskCacheEntry?

    /// Stores `entry` under `key`; `false` when the tier cannot take it now (never thrown).
    @discardableResult
    func share(_ entry: DiskCacheEntry, forKey key: String) async -> Bool

    /// Looks `key` up and, on a miss, takes the fetch lease or waits for the instance that
    /// holds it. `afterMiss`: the caller has just looked and found nothing usable.
    func entryOrLease(forKey key: String, notStoredBefore: Date?, afterMiss: Bool) async -> SharedCacheLookup

    /// Keeps `lease` alive while its holder fetches, until the calling task is cancelled.
    func keepAlive(_ lease: SharedCacheLease) async

    /// Releases `lease` if this instance still holds it.
    func release(_ lease: SharedCacheLease) async

    /// Records, for every instance, that `scope`'s entries stored before `date` are out of
    /// date; `false` when the tier cannot take it now.
    @discardableResult
    func recordInvalidation(ofScope scope: String, at date: Date) async -> Bool

    /// The latest invalidation of `scope` any instance recorded, or `nil`.
    func lastInvalidation(ofScope scope: String) async -> Date?

    /// What the tier did so far (lifetime counts, only growing).
    func statistics() -> SharedCacheStatistics

    /// Returns when every write submitted before the call has finished.
    func flush() async
}

/// How a client gets its shared tiers: one per kind of entry (its images, its pages),
/// each under its own `namespace`. `PostFeedRedis` conforms `RedisCache.Configuration`, so
/// `configuration.sharedCache = RedisCache.Configuration(address: address)` plugs Redis in.
public protocol SharedCacheTier: Sendable {
    /// A tier under `namespace` (appended to the tier's own), sending its warnings (one line
    /// each: down, full) to `warningHandler`. Connects on first use, not here.
    func makeSharedCache(namespace: String, warningHandler: @escaping @Sendable (String) -> Void) -> any SharedDataCaching
}

/// A fetch lease an instance holds: release it after sharing the value (or failing to get one).
public struct SharedCacheLease: Sendable, Equatable {
    /// The cache key it covers.
    public let key: String
    /// This holder's random token: only its holder releases it.
    public let token: String

    /// A lease on `key` held with `token`.
    public init(key: String, token: String) {
        self.key = key
        self.token = token
    }
}

/// What ``SharedDataCaching/entryOrLease(forKey:notStoredBefore:afterMiss:)`` found.
public enum SharedCacheLookup: Sendable {
    /// The entry, verified (fresh or not: check ``DiskCacheEntry/isExpired(at:)``).
    case hit(DiskCacheEntry)
    /// Nothing shared and this instance now holds the fetch lease: fetch from the origin,
    /// share the entry, then release the lease.
    case lease(SharedCacheLease)
    /// Fetch from the origin without a lease: the tier cannot answer now, or another
    /// instance's lease ended without a value.
    case fetch
}
