extension InfiniteFeed {
    /// What list state needs to put the feed back: pages, the next key, the total.
    public struct Snapshot: Sendable, Equatable {
        /// The loaded pages in order, without their posts.
        public var segments: [Segment]
        /// `nil` at the end of the list.
        public var nextKey: PageKey?
        /// Posts in the whole list, as the backend last said; `nil` when it never did.
        public var totalCount: Int?

        /// Saved pages, for ``InfiniteFeed/restore(_:hiddenPostIDs:)``.
        public init(segments: [Segment], nextKey: PageKey?, totalCount: Int?) {
            self.segments = segments
            self.nextKey = nextKey
            self.totalCount = totalCount
        }

        /// The ids of the posts the feed shows, in order.
        public var postIDs: [PostID] { segments.flatMap(\.postIDs) }
    }

    /// The loaded pages (keys and ids, no posts), the next key and the total, for list state.
    public func snapshot() -> Snapshot {
        Snapshot(
            segments: segments.map {
                var segment = $0
                segment.posts = nil
                return segment
            },
            nextKey: nextKey, totalCount: totalCount)
    }

    /// Replaces the feed with saved pages; their posts are read lazily through
    /// ``posts(in:)`` (page cache first).
    public func restore(_ snapshot: Snapshot, hiddenPostIDs: PostIDSet = PostIDSet()) {
        generation += 1
        expiredPages = []
        segments = snapshot.segments.map {
            var segment = $0
            segment.posts = nil
            return segment
        }
        knownIDs = KnownPostIDs()
        for segment in segments { knownIDs.formUnion(segment.listedPostIDs) }
        nextKey = snapshot.nextKey
        totalCount = snapshot.totalCount
        self.hiddenPostIDs = hiddenPostIDs
    }

    /// Posts shown in earlier runs, to hide with ``Configuration/unseenOnly``.
    public func setHiddenPostIDs(_ ids: PostIDSet) {
        hiddenPostIDs = ids
    }
}
