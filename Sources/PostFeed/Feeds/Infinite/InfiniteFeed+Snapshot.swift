extension InfiniteFeed {
    /// What list state needs to put the feed back: pages, the next key, the total.
    public struct Snapshot: Sendable, Equatable {
        public var segments: [Segment]
        /// `nil` at the end of the list.
        public var nextKey: PageKey?
        public var totalCount: Int?

        public init(segments: [Segment], nextKey: PageKey?, totalCount: Int?) {
            self.segments = segments
            self.nextKey = nextKey
            self.totalCount = totalCount
        }

        public var postIDs: [Int] { segments.flatMap(\.postIDs) }
    }

    public func snapshot() -> Snapshot {
        Snapshot(
            segments: segments.map { Segment(key: $0.key, postIDs: $0.postIDs, listedPostIDs: $0.listedPostIDs) },
            nextKey: nextKey, totalCount: totalCount)
    }

    /// Replaces the feed with saved pages; their posts are read lazily through
    /// ``posts(in:)`` (page cache first).
    public func restore(_ snapshot: Snapshot, hiddenPostIDs: PostIDSet = PostIDSet()) {
        generation += 1
        segments = snapshot.segments.map { Segment(key: $0.key, postIDs: $0.postIDs, listedPostIDs: $0.listedPostIDs) }
        knownIDs = Set(segments.flatMap(\.listedPostIDs))
        nextKey = snapshot.nextKey
        totalCount = snapshot.totalCount
        self.hiddenPostIDs = hiddenPostIDs
    }

    /// Posts shown in earlier runs, to hide with ``Configuration/unseenOnly``.
    public func setHiddenPostIDs(_ ids: PostIDSet) {
        hiddenPostIDs = ids
    }
}
