/// How a save that was overtaken by another process's save is combined with it.
///
/// Two processes reading one list (a `browse` left open, a `list` in another shell) each
/// loaded the state, moved on, and save. The later save must not erase the other's
/// progress: ``ListStateStore/save(_:basedOn:)`` calls ``merged(over:)`` when the file
/// holds a newer generation than the one the saver started from.
extension ListState {
    /// What merging kept.
    enum MergeResult: Equatable {
        /// One list extends the other: the longer list is kept with the saver's anchor.
        case merged
        /// The lists (or pages) differ: the saver's state replaces the other's.
        case replaced(other: ListState)
    }

    /// `self`, a state being saved from an older generation, combined with `newer`, the
    /// state another process saved since (same mode and backend).
    ///
    /// - Infinite: when one list of loaded posts extends the other (same page size, the
    ///   same ids and pages in the same order), the longer one is kept and the saver's
    ///   anchor wins; otherwise the saver's list replaces the other's.
    /// - Paged: the saver's page wins (a paged state holds only its page).
    /// - Posts seen in either are seen in the result.
    func merged(over newer: ListState) -> (state: ListState, result: MergeResult) {
        var seen = seenPostIDs
        seen.formUnion(newer.seenPostIDs)
        var result = self
        result.seenPostIDs = seen
        switch mode {
        case .infinite:
            if pageSize == newer.pageSize, newer.loadedPostIDs.count > loadedPostIDs.count,
               newer.loadedPostIDs.starts(with: loadedPostIDs), newer.loadedPageKeys.starts(with: loadedPageKeys)
            {
                result = newer
                result.anchor = anchor ?? newer.anchor
                result.savedAt = savedAt
                result.seenPostIDs = seen
                result.shownLength = Self.furthestShown(self, newer)
                return (result, .merged)
            }
            if loadedPostIDs.starts(with: newer.loadedPostIDs), loadedPageKeys.starts(with: newer.loadedPageKeys) {
                result.shownLength = Self.furthestShown(self, newer)
                return (result, .merged)
            }
            return (result, .replaced(other: newer))
        case .paged:
            if newer.currentPage == currentPage, newer.pageSize == pageSize { return (result, .merged) }
            return (result, .replaced(other: newer))
        }
    }

    /// The further of two merged lists' shown lengths (a list without one was shown whole);
    /// `nil` when neither says.
    private static func furthestShown(_ one: ListState, _ other: ListState) -> Int? {
        guard one.shownLength != nil || other.shownLength != nil else { return nil }
        return max(one.shownLength ?? one.coveredLength, other.shownLength ?? other.coveredLength)
    }

    /// This state with its anchor moved onto the last loaded post when it lies outside
    /// what the state can restore (a merge with a list that ended early); unchanged when valid.
    var withAnchorInside: ListState {
        guard problem != nil, anchor != nil else { return self }
        var result = self
        result.anchor = mode == .infinite
            ? loadedPostIDs.last.map { ScrollAnchor(postID: $0, index: loadedPostIDs.count - 1) }
            : loadedPostIDs.first.map { ScrollAnchor(postID: $0, index: firstLoadedIndex) }
        return result.problem == nil ? result : self
    }

    /// A few words on where this state is, for messages: `60 posts loaded, post #41 in
    /// view` or `page 3, post #41 in view`.
    var placeSummary: String {
        let view = anchor.map { ", post #\($0.position) in view" } ?? ""
        switch mode {
        case .infinite: return "\(loadedPostIDs.count) post\(loadedPostIDs.count == 1 ? "" : "s") loaded\(view)"
        case .paged: return "page \(currentPage ?? 1)\(view)"
        }
    }
}
