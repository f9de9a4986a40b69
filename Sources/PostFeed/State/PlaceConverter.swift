/// The arithmetic of places in a list: pages, positions and indexes, and putting a reader
/// back at their anchor. Pure functions; nothing here traps on any input.
///
/// Vocabulary: an **index** is 0-based (the first post has index 0); a **position** is
/// 1-based ("post #37" is position 37, index 36); **pages** are numbered from 1. With page
/// size 10, position 37 is on page 4, the 7th post there (index in page 6).
///
/// Nonsense input is clamped, not rejected: a page size below 1 counts as 1, a position
/// below 1 as 1, a page below 1 as page 1, and results saturate at `Int.max`.
public enum PlaceConverter {
    /// The page holding 1-based `position`: `ceil(position / pageSize)`.
    ///
    /// `page(forPosition: 37, pageSize: 10) == 4`
    public static func page(forPosition position: Int, pageSize: Int) -> Int {
        page(forIndex: max(position, 1) - 1, pageSize: pageSize)
    }

    /// The page holding 0-based `index`: `index / pageSize + 1`.
    public static func page(forIndex index: Int, pageSize: Int) -> Int {
        let quotient = max(index, 0) / max(pageSize, 1)
        return quotient == Int.max ? Int.max : quotient + 1
    }

    /// The 1-based position of the post at 0-based `indexInPage` on `page`:
    /// `(page - 1) * pageSize + indexInPage + 1`.
    ///
    /// `position(page: 4, indexInPage: 6, pageSize: 10) == 37`
    public static func position(page: Int, indexInPage: Int, pageSize: Int) -> Int {
        let index = saturatingAdd(firstIndex(ofPage: page, pageSize: pageSize), max(indexInPage, 0))
        return saturatingAdd(index, 1)
    }

    /// The 0-based index in the whole list of the first post of `page`: `(page - 1) * pageSize`.
    public static func firstIndex(ofPage page: Int, pageSize: Int) -> Int {
        let (product, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: max(pageSize, 1))
        return overflow ? Int.max : product
    }

    /// Where to put the reader back: an index into `currentIDs`, or `nil` when it is empty.
    ///
    /// - Parameters:
    ///   - anchor: the saved anchor; its `index` counts in `savedIDs`.
    ///   - savedIDs: the post ids in order as they were when the anchor was saved.
    ///   - currentIDs: the post ids in order as they are now.
    /// - Returns: the anchor post's index now, when it is still there. Else the nearest
    ///   post that survived, searching outward from the anchor's old place in `savedIDs`;
    ///   at equal distance the later post wins, since it is the one that moves up into the
    ///   removed post's place. Else the anchor's old index, clamped to `currentIDs`.
    public static func restoredIndex(of anchor: ScrollAnchor, savedIDs: [PostID], currentIDs: [PostID]) -> Int? {
        guard !currentIDs.isEmpty else { return nil }
        var currentIndex: [PostID: Int] = [:]
        for (index, id) in currentIDs.enumerated() where currentIndex[id] == nil {
            currentIndex[id] = index
        }
        if let index = currentIndex[anchor.postID] { return index }

        if let oldIndex = oldIndex(of: anchor, in: savedIDs) {
            let reach = max(oldIndex, savedIDs.count - 1 - oldIndex)
            for distance in stride(from: 1, through: reach, by: 1) {
                let after = oldIndex + distance
                if after < savedIDs.count, let index = currentIndex[savedIDs[after]] { return index }
                let before = oldIndex - distance
                if before >= 0, let index = currentIndex[savedIDs[before]] { return index }
            }
        }
        return min(max(anchor.index, 0), currentIDs.count - 1)
    }

    /// Where the anchor post sat in `savedIDs`: at `anchor.index` when the ids agree, else
    /// wherever that id is, else nowhere.
    private static func oldIndex(of anchor: ScrollAnchor, in savedIDs: [PostID]) -> Int? {
        if savedIDs.indices.contains(anchor.index), savedIDs[anchor.index] == anchor.postID {
            return anchor.index
        }
        return savedIDs.firstIndex(of: anchor.postID)
    }

    /// `lhs + rhs`, clamped to `Int.min…Int.max` instead of trapping: for numbers that
    /// come from a file, an argument or a key.
    public static func saturatingAdd(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? (rhs > 0 ? Int.max : Int.min) : sum
    }
}
