/// A page's post ids packed as varint deltas: ids of one page sit close together (1, 2, 3 or
/// 981, 980, 979), so each usually costs one byte instead of eight. The infinite feed keeps
/// the ids of every page it loaded (for the reader's place, positions and search), so over
/// 100,000 posts this is the difference between about 2 MiB and about 300 KiB.
///
/// Each id is stored as the zigzag varint of its difference from the one before (the first
/// from 0), with wrapping arithmetic: any `Int` round-trips, none traps.
struct PackedPostIDs: Sendable, Equatable {
    private var bytes: [UInt8]
    /// Number of ids.
    private(set) var count: Int

    /// No ids.
    init() {
        bytes = []
        count = 0
    }

    /// `ids`, in order.
    init(_ ids: [Int]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count + 2)
        var previous = 0
        for id in ids {
            let delta = id &- previous
            previous = id
            // Zigzag: small negative and positive deltas both become small unsigned numbers.
            var value = UInt64(bitPattern: Int64(truncatingIfNeeded: (delta << 1) ^ (delta >> 63)))
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(truncatingIfNeeded: value))
        }
        self.bytes = bytes
        self.count = ids.count
    }

    /// The ids, in order.
    var ids: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }

    /// Bytes the packed ids take (not counting the array's header).
    var byteCount: Int { bytes.count }

    /// Whether there are no ids.
    var isEmpty: Bool { count == 0 }

    /// The offset of `id`, if present.
    func firstIndex(of id: Int) -> Int? {
        var offset = 0
        var found: Int?
        forEach { candidate in
            if found == nil, candidate == id { found = offset }
            offset += 1
        }
        return found
    }

    /// Calls `body` with each id, in order.
    func forEach(_ body: (Int) -> Void) {
        var previous = 0
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            // A corrupt run longer than 64 bits cannot come from `init`; the shift is masked anyway.
            value |= UInt64(byte & 0x7F) << (shift & 63)
            if byte & 0x80 != 0 {
                shift += 7
                continue
            }
            let delta = Int(truncatingIfNeeded: Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
            previous = previous &+ delta
            body(previous)
            value = 0
            shift = 0
        }
    }
}
