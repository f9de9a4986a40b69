/// The bookkeeping behind ``MemoryCache``: a hash map from key to slot plus an intrusive
/// doubly linked list threaded through an array of slots, newest at the head.
///
/// Every operation is O(1): lookups go through the dictionary, recency changes relink
/// two neighbours, and eviction pops the tail. Freed slots are reused through a free
/// list, so the array never needs compacting. Not thread-safe: ``MemoryCache`` keeps it
/// inside a `Mutex`.
///
/// The parts of an entry live in parallel arrays indexed by slot — keys, values, costs,
/// and a small ``SlotMetadata`` (recency links and expiry) — so a hit reads the value and
/// one metadata record, relinks two integers per neighbour, and never copies (retains)
/// the key. At 100,000 entries every record touched is a cache miss: they are kept few
/// and small.
///
/// Why `@usableFromInline`/`@inlinable`: ``MemoryCache`` is generic and used from other
/// modules. Without inlinable bodies every hit ran unspecialized — generic metadata
/// lookups and value-witness copies on each relink — and cost 4–8× a `Dictionary` under
/// a `Mutex` (`postfeed-bench cache`). Inlinable, the caller's module specializes it for
/// its key and value types.
@usableFromInline
struct LRUStorage<Key: Hashable, Value> {
    /// One entry, as ``peek(_:)`` and ``remove(_:)`` return it.
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        /// Time since the owning cache's clock origin after which the entry is stale.
        @usableFromInline var expiresAt: Duration?

        @inlinable
        init(key: Key, value: Value, cost: Int, expiresAt: Duration?) {
            self.key = key
            self.value = value
            self.cost = cost
            self.expiresAt = expiresAt
        }
    }

    /// A slot's neighbours in the recency list (``none`` at either end) and its expiry:
    /// what a hit needs besides the value, in 32 bytes. Slots are `Int32`: a memory cache
    /// of more than two billion entries is not a use case.
    @usableFromInline
    struct SlotMetadata {
        /// Towards the head (more recently used).
        @usableFromInline var newer: Int32
        /// Towards the tail (less recently used).
        @usableFromInline var older: Int32
        /// Time since the owning cache's clock origin after which the entry is stale.
        @usableFromInline var expiresAt: Duration?

        @inlinable
        init(newer: Int32 = LRUStorage.none, older: Int32 = LRUStorage.none, expiresAt: Duration? = nil) {
            self.newer = newer
            self.older = older
            self.expiresAt = expiresAt
        }
    }

    /// "No slot", for links and list ends.
    @usableFromInline static var none: Int32 { -1 }

    // Parallel arrays, indexed by slot; a free slot holds `nil` key and value.
    @usableFromInline var keys: [Key?] = []
    @usableFromInline var values: [Value?] = []
    @usableFromInline var costs: [Int] = []
    @usableFromInline var metadata: [SlotMetadata] = []

    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var slotsByKey: [Key: Int] = [:]
    @usableFromInline var newest: Int32 = LRUStorage.none
    @usableFromInline var oldest: Int32 = LRUStorage.none
    @usableFromInline var totalCost = 0

    @usableFromInline
    init() {}

    @inlinable
    var count: Int { slotsByKey.count }

    // MARK: Reading

    /// The slot holding `key`; read it with ``value(at:)`` / ``expiresAt(at:)``, mark it
    /// used with ``touch(slot:)``.
    @inlinable
    func slot(forKey key: Key) -> Int? {
        slotsByKey[key]
    }

    @inlinable
    func value(at slot: Int) -> Value? {
        values[slot]
    }

    @inlinable
    func expiresAt(at slot: Int) -> Duration? {
        metadata[slot].expiresAt
    }

    /// The entry stored for `key`, without changing its recency.
    @inlinable
    func peek(_ key: Key) -> Entry? {
        guard let slot = slotsByKey[key] else { return nil }
        return entry(at: slot)
    }

    @inlinable
    func entry(at slot: Int) -> Entry? {
        guard let key = keys[slot], let value = values[slot] else { return nil }
        return Entry(key: key, value: value, cost: costs[slot], expiresAt: metadata[slot].expiresAt)
    }

    /// Marks `key` as the most recently used entry.
    @inlinable
    mutating func touch(_ key: Key) {
        guard let slot = slotsByKey[key] else { return }
        touch(slot: slot)
    }

    /// Marks the entry in `slot` as the most recently used one: one relink, no lookup.
    @inlinable
    mutating func touch(slot: Int) {
        let slot = Int32(truncatingIfNeeded: slot)
        guard slot != newest else { return }
        unlink(slot)
        pushNewest(slot)
    }

    /// The least recently used key, the next eviction victim.
    @inlinable
    var oldestKey: Key? {
        oldest == Self.none ? nil : keys[Int(oldest)]
    }

    // MARK: Writing

    /// Inserts or replaces the value for `key` and makes it the most recently used entry.
    @inlinable
    mutating func insert(_ value: Value, forKey key: Key, cost: Int, expiresAt: Duration?) {
        if let slot = slotsByKey[key] {
            totalCost += cost - costs[slot]
            values[slot] = value
            costs[slot] = cost
            metadata[slot].expiresAt = expiresAt
            touch(slot: slot)
            return
        }
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            keys[slot] = key
            values[slot] = value
            costs[slot] = cost
            metadata[slot] = SlotMetadata(expiresAt: expiresAt)
        } else {
            slot = keys.count
            keys.append(key)
            values.append(value)
            costs.append(cost)
            metadata.append(SlotMetadata(expiresAt: expiresAt))
        }
        slotsByKey[key] = slot
        totalCost += cost
        pushNewest(Int32(truncatingIfNeeded: slot))
    }

    /// Removes `key`; returns the removed entry, if there was one.
    @inlinable
    @discardableResult
    mutating func remove(_ key: Key) -> Entry? {
        guard let slot = slotsByKey.removeValue(forKey: key) else { return nil }
        unlink(Int32(truncatingIfNeeded: slot))
        let entry = entry(at: slot)
        keys[slot] = nil
        values[slot] = nil
        metadata[slot] = SlotMetadata()
        totalCost -= costs[slot]
        costs[slot] = 0
        freeSlots.append(slot)
        return entry
    }

    @inlinable
    mutating func removeAll() {
        self = LRUStorage()
    }

    /// Keys from most to least recently used. O(n); for tests and diagnostics.
    var keysByRecency: [Key] {
        var result: [Key] = []
        var cursor = newest
        while cursor != Self.none, let key = keys[Int(cursor)] {
            result.append(key)
            cursor = metadata[Int(cursor)].older
        }
        return result
    }

    /// Walks the list both ways and checks it against the map and the cost total.
    /// O(n); for tests.
    var isConsistent: Bool {
        let slots = keys.count
        guard values.count == slots, costs.count == slots, metadata.count == slots else { return false }
        var forward: [Int] = []
        var cursor = newest
        var previous = Self.none
        while cursor != Self.none, let key = keys[Int(cursor)], values[Int(cursor)] != nil {
            guard metadata[Int(cursor)].newer == previous, slotsByKey[key] == Int(cursor) else { return false }
            forward.append(Int(cursor))
            if forward.count > slots { return false }  // a cycle
            previous = cursor
            cursor = metadata[Int(cursor)].older
        }
        guard cursor == Self.none, previous == oldest, forward.count == slotsByKey.count else { return false }
        let cost = forward.reduce(0) { $0 + costs[$1] }
        return cost == totalCost && forward.count + freeSlots.count == slots
    }

    // MARK: List surgery

    @inlinable
    mutating func unlink(_ slot: Int32) {
        let (newer, older) = (metadata[Int(slot)].newer, metadata[Int(slot)].older)
        if newer != Self.none { metadata[Int(newer)].older = older } else { newest = older }
        if older != Self.none { metadata[Int(older)].newer = newer } else { oldest = newer }
        metadata[Int(slot)].newer = Self.none
        metadata[Int(slot)].older = Self.none
    }

    @inlinable
    mutating func pushNewest(_ slot: Int32) {
        metadata[Int(slot)].newer = Self.none
        metadata[Int(slot)].older = newest
        if newest != Self.none { metadata[Int(newest)].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }
}
