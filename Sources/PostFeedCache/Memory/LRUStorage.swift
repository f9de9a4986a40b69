/// The bookkeeping behind ``MemoryCache``: a hash map from key to slot plus an intrusive
/// doubly linked list threaded through an array of slots, newest at the head.
///
/// Every operation is O(1): lookups go through the dictionary, recency changes relink
/// two neighbours, and eviction pops the tail. Freed slots are reused through a free
/// list, so the array never needs compacting. Not thread-safe: ``MemoryCache`` keeps it
/// inside a `Mutex`.
struct LRUStorage<Key: Hashable, Value> {
    struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Time since the owning cache's clock origin after which the entry is stale.
        var expiresAt: Duration?
        /// Towards the head (more recently used).
        var newer: Int?
        /// Towards the tail (less recently used).
        var older: Int?
    }

    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var slotsByKey: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?
    private(set) var totalCost = 0

    var count: Int { slotsByKey.count }

    // MARK: Reading

    /// The node stored for `key`, without changing its recency.
    func peek(_ key: Key) -> Node? {
        guard let slot = slotsByKey[key] else { return nil }
        return nodes[slot]
    }

    /// Marks `key` as the most recently used entry.
    mutating func touch(_ key: Key) {
        guard let slot = slotsByKey[key] else { return }
        unlink(slot)
        pushNewest(slot)
    }

    /// The least recently used key, the next eviction victim.
    var oldestKey: Key? {
        guard let oldest else { return nil }
        return nodes[oldest]?.key
    }

    // MARK: Writing

    /// Inserts or replaces the value for `key` and makes it the most recently used entry.
    mutating func insert(_ value: Value, forKey key: Key, cost: Int, expiresAt: Duration?) {
        if let slot = slotsByKey[key], let old = nodes[slot] {
            totalCost += cost - old.cost
            nodes[slot] = Node(key: key, value: value, cost: cost, expiresAt: expiresAt,
                               newer: old.newer, older: old.older)
            unlink(slot)
            pushNewest(slot)
            return
        }
        let node = Node(key: key, value: value, cost: cost, expiresAt: expiresAt, newer: nil, older: nil)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slotsByKey[key] = slot
        totalCost += cost
        pushNewest(slot)
    }

    /// Removes `key`; returns the removed node, if there was one.
    @discardableResult
    mutating func remove(_ key: Key) -> Node? {
        guard let slot = slotsByKey.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let node = nodes[slot]
        nodes[slot] = nil
        freeSlots.append(slot)
        totalCost -= node?.cost ?? 0
        return node
    }

    mutating func removeAll() {
        self = LRUStorage()
    }

    /// Keys from most to least recently used. O(n); for tests and diagnostics.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var cursor = newest
        while let slot = cursor, let node = nodes[slot] {
            keys.append(node.key)
            cursor = node.older
        }
        return keys
    }

    /// Walks the list both ways and checks it against the map and the cost total.
    /// O(n); for tests.
    var isConsistent: Bool {
        var forward: [Int] = []
        var cursor = newest
        var previous: Int?
        while let slot = cursor, let node = nodes[slot] {
            guard node.newer == previous, slotsByKey[node.key] == slot else { return false }
            forward.append(slot)
            if forward.count > nodes.count { return false }  // a cycle
            previous = slot
            cursor = node.older
        }
        guard cursor == nil, previous == oldest, forward.count == slotsByKey.count else { return false }
        let cost = forward.reduce(0) { $0 + (nodes[$1]?.cost ?? 0) }
        return cost == totalCost && forward.count + freeSlots.count == nodes.count
    }

    // MARK: List surgery

    private mutating func unlink(_ slot: Int) {
        guard let node = nodes[slot] else { return }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        nodes[slot]?.newer = nil
        nodes[slot]?.older = nil
    }

    private mutating func pushNewest(_ slot: Int) {
        nodes[slot]?.older = newest
        nodes[slot]?.newer = nil
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}
