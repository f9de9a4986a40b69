/// A set of post ids kept as sorted, disjoint ranges, so "every post of the first 500" costs
/// one range and not 500 numbers. Holds the posts shown in earlier runs (the "unseen only"
/// option).
///
/// In JSON it is an array of single ids and `[first, last]` pairs, in order:
/// `[[1, 40], 45, [50, 52]]` is ids 1…40, 45 and 50…52.
///
/// ```swift
/// var seen: PostIDSet = [3, 1, 2, 7]
/// seen.formUnion(page.posts.map(\.id))
/// let unseen = posts.filter { !seen.contains($0.id) }
/// ```
public struct PostIDSet: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The ids as sorted ranges that neither overlap nor touch.
    public private(set) var ranges: [ClosedRange<Int>]

    /// An empty set.
    public init() {
        ranges = []
    }

    /// The set of `ids`, in any order, duplicates allowed.
    public init<S: Sequence>(_ ids: S) where S.Element == Int {
        ranges = []
        formUnion(ids)
    }

    /// `let seen: PostIDSet = [1, 2, 3]`
    public init(arrayLiteral ids: Int...) {
        self.init(ids)
    }

    /// The set of ids covered by `ranges`, which may overlap or be out of order.
    public init(ranges: [ClosedRange<Int>]) {
        self.ranges = Self.normalized(ranges)
    }

    /// `true` when no id is in the set.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Number of ids in the set (saturates at `Int.max`).
    public var count: Int {
        var total = 0
        for range in ranges {
            let (width, widthOverflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
            let (sum, sumOverflow) = total.addingReportingOverflow(width)
            if widthOverflow || sumOverflow || sum == Int.max { return Int.max }
            total = sum + 1
        }
        return total
    }

    /// `true` when `id` is in the set. O(log n) in the number of ranges.
    public func contains(_ id: Int) -> Bool {
        let low = firstRange(endingAtOrAfter: id)
        return low < ranges.count && ranges[low].contains(id)
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
    public mutating func insert(_ id: Int) {
        formUnion(CollectionOfOne(id))
    }

    /// Adds every id of `ids`.
    public mutating func formUnion<S: Sequence>(_ ids: S) where S.Element == Int {
        let added = Set(ids).sorted().map { $0...$0 }
        guard !added.isEmpty else { return }
        ranges = Self.normalized(ranges + added)
    }

    /// Removes `id`, splitting the range that holds it.
    public mutating func remove(_ id: Int) {
        let low = firstRange(endingAtOrAfter: id)
        guard low < ranges.count, ranges[low].contains(id) else { return }
        let range = ranges[low]
        // `id - 1` and `id + 1` stay in bounds: `id` is strictly inside the range's side kept.
        var pieces: [ClosedRange<Int>] = []
        if range.lowerBound < id { pieces.append(range.lowerBound...(id - 1)) }
        if id < range.upperBound { pieces.append((id + 1)...range.upperBound) }
        ranges.replaceSubrange(low...low, with: pieces)
    }

    /// Adds every id of `other`.
    public mutating func formUnion(_ other: PostIDSet) {
        ranges = Self.normalized(ranges + other.ranges)
    }

    /// `1...40, 45, 50...52`
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
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
        case single(Int)
        case span(Int, Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(Int.self) {
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

        var range: ClosedRange<Int> {
            switch self {
            case .single(let id): id...id
            case .span(let first, let last): first...last
            }
        }
    }

    /// Reads `[[1, 40], 45]`; ranges may overlap or be out of order, a pair must not be reversed.
    public init(from decoder: any Decoder) throws {
        let elements = try decoder.singleValueContainer().decode([Element].self)
        self.init(ranges: elements.map(\.range))
    }

    /// Writes single ids as numbers and longer ranges as `[first, last]` pairs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ranges.map { $0.lowerBound == $0.upperBound ? Element.single($0.lowerBound) : .span($0.lowerBound, $0.upperBound) })
    }
}
