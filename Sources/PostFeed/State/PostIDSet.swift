/// A set of post ids. Ids that are canonical decimal integers (`PostID.integerValue`)
/// are kept as sorted, disjoint ranges, so "every post of the first 500" costs one range
/// and not 500 ids; any other id (`t3_1abc`, a URI, a 20-digit number) is kept as itself.
/// Holds the posts shown in earlier runs (the "unseen only" option).
///
/// In JSON it is an array of single ids and `[first, last]` pairs of numbers:
/// `[[1, 40], 45, [50, 52], "t3_1abc"]` is ids 1…40, 45, 50…52 and `t3_1abc`. An id that is
/// a canonical integer is written as a number, any other as a string.
///
/// ```swift
/// var seen: PostIDSet = [3, 1, 2, "t3_1abc"]
/// seen.formUnion(page.posts.map(\.id))
/// let unseen = posts.filter { !seen.contains($0.id) }
/// ```
public struct PostIDSet: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The integer ids as sorted ranges that neither overlap nor touch.
    public private(set) var ranges: [ClosedRange<Int>]
    /// The ids that are not canonical integers.
    public private(set) var others: Set<PostID>

    /// An empty set.
    public init() {
        ranges = []
        others = []
    }

    /// The set of `ids`, in any order, duplicates allowed.
    public init<S: Sequence>(_ ids: S) where S.Element == PostID {
        self.init()
        formUnion(ids)
    }

    /// The set of the integer ids `numbers` (`PostIDSet(1...40)`).
    public init<S: Sequence>(_ numbers: S) where S.Element == Int {
        self.init(numbers.map { PostID($0) })
    }

    /// `let seen: PostIDSet = [1, 2, "t3_1abc"]`
    public init(arrayLiteral ids: PostID...) {
        self.init(ids)
    }

    /// The set of integer ids covered by `ranges`, which may overlap or be out of order.
    public init(ranges: [ClosedRange<Int>]) {
        self.ranges = Self.normalized(ranges)
        self.others = []
    }

    /// `true` when no id is in the set.
    public var isEmpty: Bool { ranges.isEmpty && others.isEmpty }

    /// Number of ids in the set (saturates at `Int.max`).
    public var count: Int {
        var total = others.count
        for range in ranges {
            let (width, widthOverflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
            let (sum, sumOverflow) = total.addingReportingOverflow(width)
            if widthOverflow || sumOverflow || sum == Int.max { return Int.max }
            total = sum + 1
        }
        return total
    }

    /// `true` when `id` is in the set. O(log n) in the number of ranges for an integer id.
    public func contains(_ id: PostID) -> Bool {
        guard let number = id.integerValue else { return others.contains(id) }
        let low = firstRange(endingAtOrAfter: number)
        return low < ranges.count && ranges[low].contains(number)
    }

    /// The index of the first range whose upper bound is `id` or more (binary search).
    private func firstRange(endingAtOrAfter id: Int) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < id {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Adds one id.
    public mutating func insert(_ id: PostID) {
        formUnion(CollectionOfOne(id))
    }

    /// Adds every id of `ids`.
    public mutating func formUnion<S: Sequence>(_ ids: S) where S.Element == PostID {
        var numbers: Set<Int> = []
        for id in ids {
            if let number = id.integerValue {
                numbers.insert(number)
            } else {
                others.insert(id)
            }
        }
        guard !numbers.isEmpty else { return }
        ranges = Self.normalized(ranges + numbers.sorted().map { $0...$0 })
    }

    /// Removes `id`, splitting the range that holds it.
    public mutating func remove(_ id: PostID) {
        guard let id = id.integerValue else {
            others.remove(id)
            return
        }
        let low = firstRange(endingAtOrAfter: id)
        guard low < ranges.count, ranges[low].contains(id) else { return }
        let range = ranges[low]
        // `id - 1` and `id + 1` stay in bounds: `id` is strictly inside the range's side kept.
        var pieces: [ClosedRange<Int>] = []
        if range.lowerBound < id { pieces.append(range.lowerBound...(id - 1)) }
        if id < range.upperBound { pieces.append((id + 1)...range.upperBound) }
        ranges.replaceSubrange(low...low, with: pieces)
    }

    /// The ids in this set or in `other`.
    public func union(_ other: PostIDSet) -> PostIDSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Adds every id of `other`.
    public mutating func formUnion(_ other: PostIDSet) {
        ranges = Self.normalized(ranges + other.ranges)
        others.formUnion(other.others)
    }

    /// `1...40, 45, 50...52, t3_1abc`
    public var description: String {
        (ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
            + others.map(\.text).sorted())
            .joined(separator: ", ")
    }

    /// Sorts and merges ranges that overlap or touch.
    private static func normalized(_ input: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            guard let last = merged.last else {
                merged.append(range)
                continue
            }
            // `upperBound + 1` would overflow at Int.max, hence the first test.
            if last.upperBound == Int.max || range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

// MARK: - Codable

extension PostIDSet: Codable {
    /// One element of the JSON array: a single id or a `[first, last]` pair.
    private enum Element: Codable {
        case single(PostID)
        case span(Int, Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(PostID.self) {
                self = .single(id)
                return
            }
            let pair = try container.decode([Int].self)
            guard pair.count == 2, pair[0] <= pair[1] else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an id or a [first, last] pair with first ≤ last, found \(pair)")
            }
            self = .span(pair[0], pair[1])
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .single(let id): try container.encode(id)
            case .span(let first, let last): try container.encode([first, last])
            }
        }
    }

    /// Reads `[[1, 40], 45, "t3_1abc"]`; ranges may overlap or be out of order, a pair must
    /// not be reversed. Files of state version 1 and 2 hold numbers only.
    public init(from decoder: any Decoder) throws {
        let elements = try decoder.singleValueContainer().decode([Element].self)
        var ranges: [ClosedRange<Int>] = []
        var ids: [PostID] = []
        for element in elements {
            switch element {
            case .single(let id):
                if let number = id.integerValue { ranges.append(number...number) } else { ids.append(id) }
            case .span(let first, let last): ranges.append(first...last)
            }
        }
        self.init(ranges: ranges)
        others.formUnion(ids)
    }

    /// Writes single integer ids as numbers, longer ranges as `[first, last]` pairs, then the
    /// other ids as strings (sorted, so the file reads the same every time).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let numeric = ranges.map { $0.lowerBound == $0.upperBound ? Element.single(PostID($0.lowerBound)) : .span($0.lowerBound, $0.upperBound) }
        try container.encode(numeric + others.sorted { $0.text < $1.text }.map(Element.single))
    }
}
