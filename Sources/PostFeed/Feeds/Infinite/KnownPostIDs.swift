/// The ids of every post the infinite feed loaded, for dedup: kept as ranges
/// (``PostIDSet``), so a feed of consecutive integer ids costs a few bytes however long it
/// grows, and at most a range (16 bytes) an integer id otherwise, where a set costs more
/// and doubles its table as it grows. Ids that are no integers are kept as they are.
///
/// New ids go to a small set first and are merged into the ranges a batch at a time: ids
/// come newest first, so inserting each into the sorted ranges would move the whole array
/// every time.
struct KnownPostIDs: Sendable {
    private var merged = PostIDSet()
    private var recent: Set<PostID> = []

    /// Ids waiting in ``recent`` before a merge.
    static let batchSize = 2048

    /// Whether `id` was loaded.
    func contains(_ id: PostID) -> Bool {
        recent.contains(id) || merged.contains(id)
    }

    /// Adds `ids`.
    mutating func formUnion<S: Sequence>(_ ids: S) where S.Element == PostID {
        recent.formUnion(ids)
        if recent.count >= Self.batchSize { flush() }
    }

    /// Removes `ids` (posts deleted upstream).
    mutating func subtract<S: Sequence>(_ ids: S) where S.Element == PostID {
        for id in ids {
            recent.remove(id)
            merged.remove(id)
        }
    }

    /// Every id, as a set of ranges.
    var all: PostIDSet {
        var result = merged
        result.formUnion(recent)
        return result
    }

    private mutating func flush() {
        merged.formUnion(recent)
        recent = []
    }
}
