/// Transfers waiting for a connection, kept so that finding the next one to start costs a
/// look at each host's first waiter, not a walk over everything queued.
///
/// One FIFO per priority level and origin. ``popFirst(where:)`` returns, from the highest
/// level that has one, the earliest arrival among origins that have room: the same order
/// as one FIFO per level scanned front to back, skipping full hosts. With the default caps
/// (64 in all, 16 per host) a feed that queues thousands of requests to its one host had
/// the engine thread scan the whole queue after every finished transfer, which made a
/// large queue quadratic.
///
/// Engine thread only.
struct WaitingRoom<Element: AnyObject> {
    private struct Entry {
        let arrival: UInt64
        let element: Element
    }

    /// By level (a priority's raw value), then origin key; an origin is dropped when its
    /// FIFO empties, so a client that has fetched from many hosts keeps no trace of them.
    private var levels: [[String: FIFO<Entry>]]
    private var arrivals: UInt64 = 0
    private(set) var count = 0

    init(levels: Int) {
        self.levels = Array(repeating: [:], count: levels)
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element, level: Int, origin: String) {
        arrivals &+= 1
        levels[level][origin, default: FIFO()].append(Entry(arrival: arrivals, element: element))
        count += 1
    }

    /// Removes and returns the element to start next: from the highest level that has a
    /// waiter whose origin `hasRoom`, the one that arrived first.
    mutating func popFirst(where hasRoom: (String) -> Bool) -> Element? {
        guard count > 0 else { return nil }
        for level in levels.indices.reversed() where !levels[level].isEmpty {
            var chosen: (origin: String, arrival: UInt64)?
            for (origin, waiting) in levels[level] {
                guard let first = waiting.first, first.arrival < chosen?.arrival ?? .max, hasRoom(origin) else {
                    continue
                }
                chosen = (origin, first.arrival)
            }
            guard let origin = chosen?.origin else { continue }
            return take(level: level, origin: origin) { $0.popFirst() }
        }
        return nil
    }

    /// Removes `element` if it is still waiting; `false` when it is not here.
    mutating func remove(_ element: Element, level: Int, origin: String) -> Bool {
        guard levels[level][origin] != nil else { return false }
        return take(level: level, origin: origin) { $0.remove { $0.element === element } } != nil
    }

    /// Removes and returns every waiter for `origin` (highest level first, in arrival order).
    mutating func removeAll(origin: String) -> [Element] {
        var all: [Element] = []
        for level in levels.indices.reversed() {
            guard let waiting = levels[level].removeValue(forKey: origin) else { continue }
            all.append(contentsOf: waiting.elements.map(\.element))
        }
        count -= all.count
        return all
    }

    /// Empties the room, returning every waiter (highest level first, in arrival order
    /// within an origin).
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        for level in levels.indices.reversed() {
            for waiting in levels[level].values { all.append(contentsOf: waiting.elements.map(\.element)) }
            levels[level].removeAll()
        }
        count = 0
        return all
    }

    private mutating func take(level: Int, origin: String, _ body: (inout FIFO<Entry>) -> Entry?) -> Element? {
        guard let entry = body(&levels[level][origin, default: FIFO()]) else { return nil }
        count -= 1
        if levels[level][origin]?.isEmpty == true { levels[level][origin] = nil }
        return entry.element
    }
}

/// A first-in, first-out queue over an array: O(1) at both ends, storage reclaimed as the
/// front is consumed.
struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var first: Element? { isEmpty ? nil : storage[head] }
    var elements: [Element] { storage[head...].compactMap { $0 } }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        defer { compact() }
        let element = storage[head]
        storage[head] = nil  // the caller owns it now; the slot must not keep it alive
        head += 1
        return element
    }

    /// Removes the first element that matches (an O(n) walk: for cancellation).
    mutating func remove(where matches: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: { $0.map(matches) ?? false }) else { return nil }
        defer { compact() }
        return storage.remove(at: index)
    }

    /// Drops consumed slots once they are at least half the storage.
    private mutating func compact() {
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
