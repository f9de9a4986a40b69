/// A page's post ids packed as varints: integer ids of one page sit close together (1, 2, 3
/// or 981, 980, 979), so each usually costs one byte instead of a 16-byte string. The
/// infinite feed keeps the ids of every page it loaded (for the reader's place, positions
/// and search), so over 100,000 posts this is the difference between about 2 MiB and about
/// 300 KiB.
///
/// Each id starts with a varint `header`. An id with an ``PostID/integerValue`` is the
/// zigzag form of its difference from the integer id before it (the first from 0), plus
/// one, with wrapping arithmetic (`header > 0`); any other id is a `0` header, the varint
/// of its UTF-8 length and its bytes. Any id round-trips, none traps.
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
    init(_ ids: [PostID]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count + 2)
        func appendVarint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(truncatingIfNeeded: value))
        }
        var previous = 0
        for id in ids {
            if let number = id.integerValue {
                let delta = number &- previous
                // Zigzag: small negative and positive deltas both become small unsigned numbers.
                let zigzag = UInt64(bitPattern: Int64(truncatingIfNeeded: (delta << 1) ^ (delta >> 63)))
                if zigzag < UInt64.max {
                    previous = number
                    appendVarint(zigzag + 1)
                    continue
                }
            }
            let text = Array(id.text.utf8)
            appendVarint(0)
            appendVarint(UInt64(text.count))
            bytes.append(contentsOf: text)
        }
        self.bytes = bytes
        self.count = ids.count
    }

    /// The ids, in order.
    var ids: [PostID] {
        var result: [PostID] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }

    /// Bytes the packed ids take (not counting the array's header).
    var byteCount: Int { bytes.count }

    /// Whether there are no ids.
    var isEmpty: Bool { count == 0 }

    /// The offset of `id`, if present.
    func firstIndex(of id: PostID) -> Int? {
        var offset = 0
        var found: Int?
        forEach { candidate in
            if found == nil, candidate == id { found = offset }
            offset += 1
        }
        return found
    }

    /// Calls `body` with each id, in order.
    func forEach(_ body: (PostID) -> Void) {
        var previous = 0
        var index = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                // A corrupt run longer than 64 bits cannot come from `init`; the shift is masked anyway.
                value |= UInt64(byte & 0x7F) << (shift & 63)
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            return value
        }
        while index < bytes.count {
            let header = varint()
            if header > 0 {
                let zigzag = header - 1
                let delta = Int(truncatingIfNeeded: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
                previous = previous &+ delta
                body(PostID(previous))
            } else {
                let length = Int(truncatingIfNeeded: min(varint(), UInt64(Int.max)))
                let end = length >= bytes.count - index ? bytes.count : index + length
                // The text came from a valid id; the fallback is for bytes `init` cannot write.
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                body(PostID(text) ?? "?")
                index = end
            }
        }
    }
}
