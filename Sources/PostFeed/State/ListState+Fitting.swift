import Foundation

/// Keeps the writer from writing what the reader refuses: a state file larger than
/// ``ListStateStore/maximumFileSize``, or with more than ``ListState/maximumLoadedPostCount``
/// loaded ids, would be set aside by the next run, which would start at post 1.
///
/// Loaded ids are written as runs (``ListState/idRuns(_:)``), so a list of consecutive ids
/// costs a few bytes however long it is; what can still grow past the limit is a very
/// long list of scattered ids, or of pages. Such a state is trimmed in steps that keep
/// the reader's place, each said in one line:
///
/// 1. The pages loaded past the reader's page (loaded ahead, by a prefetch or the
///    background catalog walk) are left out: the list ends at the reader's page and goes
///    on from the first page left out, which loads again when the reader gets there.
/// 2. The loaded ids (and how many each page holds) are left out: the page keys and the
///    anchor still name the place, and the next run reads the pages (from the page
///    cache) to learn their posts, as for a file written before ids were kept.
///
/// When even that is too large (a paged state, or hundreds of thousands of page keys
/// before the reader's page), nothing is written and the save fails with a message that
/// says so: the previous file stays as it was.
extension ListState {
    /// One trimming step: the smaller state and the line that says what was left out, or
    /// `nil` when the step does not apply.
    typealias Trim = (state: ListState, notice: String)

    /// Whether the state's loaded ids are few enough for a state file.
    var hasReadableIDCount: Bool { loadedPostIDs.count <= Self.maximumLoadedPostCount }

    /// The steps to try, in order, on a state too large to save (see the type's notes).
    var trimmingSteps: [(ListState) -> Trim?] {
        [{ $0.withoutPagesPastAnchor }, { $0.withoutLoadedIDs }]
    }

    /// Infinite, with the posts of each page known: the list cut after the page that holds
    /// the anchor (the first page when there is no anchor).
    var withoutPagesPastAnchor: Trim? {
        guard mode == .infinite, let counts = loadedPageCounts, counts.count == loadedPageKeys.count else { return nil }
        let anchorIndex = max(anchor?.index ?? 0, 0)
        var postsThrough = 0
        var keptPages = 0
        for count in counts {
            postsThrough += count
            keptPages += 1
            if postsThrough > anchorIndex { break }
        }
        guard keptPages < loadedPageKeys.count, postsThrough <= loadedPostIDs.count else { return nil }
        var trimmed = self
        let dropped = loadedPostIDs.count - postsThrough
        trimmed.nextPageKey = loadedPageKeys[keptPages]
        trimmed.endReached = false
        trimmed.loadedPageKeys = Array(loadedPageKeys.prefix(keptPages))
        trimmed.loadedPageCounts = Array(counts.prefix(keptPages))
        trimmed.loadedPostIDs = Array(loadedPostIDs.prefix(postsThrough))
        return (trimmed, "the \(dropped) posts loaded past your page (posts \(postsThrough + 1)–\(loadedPostIDs.count)) "
            + "are not saved; they load again when you scroll to them")
    }

    /// Infinite: the loaded ids and page counts left out (the pages are read again to learn them).
    var withoutLoadedIDs: Trim? {
        guard mode == .infinite, !loadedPostIDs.isEmpty else { return nil }
        var trimmed = self
        trimmed.loadedPostIDs = []
        trimmed.loadedPageCounts = nil
        return (trimmed, "the ids of the \(loadedPostIDs.count) loaded posts are not saved; "
            + "the next run reads their \(loadedPageKeys.count) pages again (from the page cache) to learn them")
    }
}
