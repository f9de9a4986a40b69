import Synchronization

/// A thread-safe, strictly least-recently-used in-memory cache with NSCache's vocabulary.
///
/// Why not `NSCache`: it is not LRU (it evicts in an unspecified order), has no TTL and
/// no statistics, and its Linux implementation scans linearly on insert.
///
/// - An entry is kept until the cache holds more than ``countLimit`` entries or more
///   than ``totalCostLimit`` total cost; then the least recently used entries are
///   evicted first. Reading an entry (``object(forKey:)``) makes it the most recent.
/// - An entry whose cost exceeds ``maximumEntryCostRatio`` × ``totalCostLimit``
///   (10 % by default) is not kept at all: one huge image must not flush the cache.
/// - An entry stored with a `ttl` is treated as absent once the injected clock has moved
///   past it; it is removed on that read and counted as a miss and an expiration.
/// - Every operation is O(1) and takes one `Mutex`. A hit costs one hash lookup and one
///   relink (`postfeed-bench cache` compares it with `NSCache` and a locked `Dictionary`).
///
/// ```swift
/// let images = MemoryCache<URL, Data>()              // 100 entries or the byte limit
/// images.setObject(data, forKey: url, cost: data.count, ttl: .seconds(300))
/// if let hit = images.object(forKey: url) { show(hit) }
/// print(images.statistics.hitRatio)
/// ```
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    // Internal but inlinable (see `LRUStorage`): callers in other modules specialize the
    // hit and store paths for their key and value types.
    @usableFromInline
    struct State {
        @usableFromInline var storage = LRUStorage<Key, Value>()
        @usableFromInline var countLimit: Int
        @usableFromInline var totalCostLimit: Int
        @usableFromInline var maximumEntryCostRatio: Double
        @usableFromInline var hits = 0
        @usableFromInline var misses = 0
        @usableFromInline var evictions = 0
        @usableFromInline var expirations = 0
        @usableFromInline var rejections = 0

        init(countLimit: Int, totalCostLimit: Int, maximumEntryCostRatio: Double) {
            self.countLimit = countLimit
            self.totalCostLimit = totalCostLimit
            self.maximumEntryCostRatio = maximumEntryCostRatio
        }
    }

    @usableFromInline let state: Mutex<State>
    /// Time elapsed on the injected clock since the cache was created.
    @usableFromInline let elapsed: @Sendable () -> Duration

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - countLimit: Maximum number of entries; `0` means no count limit (as `NSCache`).
    ///     Default ``MemoryCacheDefaults/countLimit`` (100).
    ///   - totalCostLimit: Maximum sum of entry costs; `0` means no cost limit.
    ///     Default ``MemoryCacheDefaults/totalCostLimit``, derived from physical memory.
    ///   - maximumEntryCostRatio: Share of `totalCostLimit` above which a single entry is
    ///     refused. Default `0.1`. Ignored when `totalCostLimit` is `0`.
    ///   - clock: The clock TTLs are measured on; inject a manual clock in tests.
    public init<C: Clock>(
        countLimit: Int = MemoryCacheDefaults.countLimit,
        totalCostLimit: Int = MemoryCacheDefaults.totalCostLimit,
        maximumEntryCostRatio: Double = MemoryCacheDefaults.maximumEntryCostRatio,
        clock: C
    ) where C.Duration == Duration {
        let origin = clock.now
        self.elapsed = { origin.duration(to: clock.now) }
        self.state = Mutex(State(
            countLimit: max(0, countLimit),
            totalCostLimit: max(0, totalCostLimit),
            maximumEntryCostRatio: maximumEntryCostRatio
        ))
    }

    /// Creates a cache whose TTLs run on `ContinuousClock`. See
    /// ``init(countLimit:totalCostLimit:maximumEntryCostRatio:clock:)``.
    public convenience init(
        countLimit: Int = MemoryCacheDefaults.countLimit,
        totalCostLimit: Int = MemoryCacheDefaults.totalCostLimit,
        maximumEntryCostRatio: Double = MemoryCacheDefaults.maximumEntryCostRatio
    ) {
        self.init(countLimit: countLimit, totalCostLimit: totalCostLimit,
                  maximumEntryCostRatio: maximumEntryCostRatio, clock: ContinuousClock())
    }

    // MARK: Reading and writing

    /// The value for `key`, or `nil` when absent or expired. A hit makes the entry the
    /// most recently used one.
    @inlinable
    public func object(forKey key: Key) -> Value? {
        state.withLock { state -> Value? in
            guard let slot = state.storage.slot(forKey: key), let value = state.storage.value(at: slot) else {
                state.misses += 1
                return nil
            }
            // The clock is read only for entries that can expire: most have no TTL.
            if let expiresAt = state.storage.expiresAt(at: slot), expiresAt <= elapsed() {
                state.storage.remove(key)
                state.expirations += 1
                state.misses += 1
                return nil
            }
            state.storage.touch(slot: slot)
            state.hits += 1
            return value
        }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts least
    /// recently used entries until both limits hold.
    ///
    /// - Parameters:
    ///   - cost: The entry's share of ``totalCostLimit``, e.g. its byte count. Negative
    ///     costs count as `0`.
    ///   - ttl: How long the entry stays valid, measured on the injected clock;
    ///     `nil` (the default) keeps it until it is evicted or removed.
    ///
    /// A value costing more than ``maximumEntryCostRatio`` × ``totalCostLimit`` is not
    /// stored, and any older value for `key` is removed (it would be stale).
    @inlinable
    public func setObject(_ value: Value, forKey key: Key, cost: Int = 0, ttl: Duration? = nil) {
        let cost = max(0, cost)
        let expiresAt = ttl.map { elapsed() + $0 }
        state.withLock { state in
            if state.totalCostLimit > 0,
               Double(cost) > Double(state.totalCostLimit) * state.maximumEntryCostRatio {
                state.storage.remove(key)
                state.rejections += 1
                return
            }
            state.storage.insert(value, forKey: key, cost: cost, expiresAt: expiresAt)
            Self.evictToLimits(&state)
        }
    }

    /// Removes the value for `key`, if any.
    public func removeObject(forKey key: Key) {
        state.withLock { _ = $0.storage.remove(key) }
    }

    /// Removes every value. Statistics counters are kept.
    public func removeAllObjects() {
        state.withLock { $0.storage.removeAll() }
    }

    /// Removes every entry whose TTL has passed; returns how many. O(n): call it from a
    /// periodic sweep, not on a hot path (reads already drop expired entries one by one).
    @discardableResult
    public func removeExpiredObjects() -> Int {
        let now = elapsed()
        return state.withLock { state in
            let expired = state.storage.keysByRecency.filter { key in
                guard let expiresAt = state.storage.peek(key)?.expiresAt else { return false }
                return expiresAt <= now
            }
            for key in expired { state.storage.remove(key) }
            state.expirations += expired.count
            return expired.count
        }
    }

    // MARK: Limits

    /// Maximum number of entries; `0` means no limit. Lowering it evicts at once.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set {
            state.withLock { state in
                state.countLimit = max(0, newValue)
                Self.evictToLimits(&state)
            }
        }
    }

    /// Maximum total cost; `0` means no limit. Lowering it evicts at once (entries now
    /// above the per-entry cap stay until evicted by recency).
    public var totalCostLimit: Int {
        get { state.withLock { $0.totalCostLimit } }
        set {
            state.withLock { state in
                state.totalCostLimit = max(0, newValue)
                Self.evictToLimits(&state)
            }
        }
    }

    /// Share of ``totalCostLimit`` above which one entry is refused (default `0.1`).
    public var maximumEntryCostRatio: Double {
        get { state.withLock { $0.maximumEntryCostRatio } }
        set { state.withLock { $0.maximumEntryCostRatio = newValue } }
    }

    /// Sum of the costs of the entries held now (expired ones included until removed).
    public var totalCost: Int { state.withLock { $0.storage.totalCost } }

    /// Number of entries held now (expired ones included until removed).
    public var count: Int { state.withLock { $0.storage.count } }

    /// A consistent snapshot of the counters and sizes.
    public var statistics: MemoryCacheStatistics {
        state.withLock { state in
            MemoryCacheStatistics(
                hits: state.hits, misses: state.misses, evictions: state.evictions,
                expirations: state.expirations, rejections: state.rejections,
                count: state.storage.count, totalCost: state.storage.totalCost
            )
        }
    }

    // MARK: Internals for tests

    /// Keys from most to least recently used. O(n).
    var keysByRecency: [Key] { state.withLock { $0.storage.keysByRecency } }

    /// Whether the list, the map and the cost total agree. O(n).
    var isConsistent: Bool { state.withLock { $0.storage.isConsistent } }

    @inlinable
    static func evictToLimits(_ state: inout State) {
        while (state.countLimit > 0 && state.storage.count > state.countLimit)
            || (state.totalCostLimit > 0 && state.storage.totalCost > state.totalCostLimit),
            let victim = state.storage.oldestKey {
            state.storage.remove(victim)
            state.evictions += 1
        }
    }
}
