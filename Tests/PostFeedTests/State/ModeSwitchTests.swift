import Foundation
import PostFeed
import Testing

@Suite("Switching mode and page size keeps the place")
struct ModeSwitchTests {
    @Test("infinite at post #37 with page size 10 opens page 4, and back at the same post")
    func infiniteToPagedAndBack() throws {
        // Given infinite scroll with 50 posts loaded, the reader at post #37 (index 36)
        let infinite = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)

        // When switched to paged mode
        let paged = infinite.switched(to: .paged, pageSize: 10, firstPageKey: .number(1))

        // Then page 4 shows, the anchor on it, with its posts and key
        #expect(paged.mode == .paged)
        #expect(paged.currentPage == 4)
        #expect(paged.currentPageKey == .number(4))
        #expect(paged.anchor == ScrollAnchor(postID: 1036, index: 36))
        #expect(paged.loadedPostIDs == StateSamples.ids(30..<40))
        #expect(paged.restoredIndex(in: StateSamples.ids(30..<40)) == 6)
        #expect(paged.nextPageKey == nil)
        #expect(!paged.endReached)
        #expect(paged.seenPostIDs == infinite.seenPostIDs)
        #expect(paged.backendIdentity == infinite.backendIdentity)

        // When switched back to infinite scroll
        let back = paged.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1))

        // Then pages 1…4 are loaded, page 5 is next, and the reader is at post #37 again
        #expect(back.mode == .infinite)
        #expect(back.currentPage == nil && back.currentPageKey == nil)
        let pagesOneToFour = (1...4).map { PageKey.number($0) }
        #expect(back.loadedPageKeys == pagesOneToFour)
        #expect(back.nextPageKey == .number(5))
        #expect(back.anchor == ScrollAnchor(postID: 1036, index: 36))
        #expect(back.restoredIndex(in: StateSamples.ids(0..<40)) == 36)
        // Both survive the file format.
        #expect(try ListState(jsonData: try paged.jsonData()) == paged)
        #expect(try ListState(jsonData: try back.jsonData()) == back)
    }

    @Test("page p with the anchor k posts down opens infinite scroll at index (p-1)*pageSize + k")
    func pagedToInfinite() {
        // Given page 3 of 10, the reader 4 posts down it
        let paged = StateSamples.paged(page: 3, pageSize: 10, indexInPage: 4)

        // When switched to infinite scroll
        let infinite = paged.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1))

        // Then the anchor is index 24 and the pages to load cover it
        #expect(infinite.anchor == ScrollAnchor(postID: 1024, index: 24))
        #expect(infinite.loadedPageKeys == [.number(1), .number(2), .number(3)])
        #expect(infinite.nextPageKey == .number(4))
        #expect(infinite.loadedPostIDs.isEmpty, "posts before page 3 are not known")
        #expect(infinite.restoredIndex(in: StateSamples.ids(0..<30)) == 24)
    }

    @Test("every position goes to page ceil(position / size) and back to the same post", arguments: [1, 3, 7, 10, 20, 100])
    func everyPosition(pageSize: Int) {
        for index in 0..<120 {
            let infinite = StateSamples.infinite(loaded: 130, pageSize: 10, anchorIndex: index)
            let paged = infinite.switched(to: .paged, pageSize: pageSize, firstPageKey: .number(1))
            #expect(paged.currentPage == PlaceConverter.page(forPosition: index + 1, pageSize: pageSize))
            let currentPageAsKey = paged.currentPage.map { PageKey.number($0) }
            #expect(paged.currentPageKey == currentPageAsKey)
            let start = (index / pageSize) * pageSize
            #expect(paged.restoredIndex(in: StateSamples.ids(start..<min(start + pageSize, 130))) == index - start)

            let back = paged.switched(to: .infinite, pageSize: pageSize, firstPageKey: .number(1))
            #expect(back.anchor == ScrollAnchor(postID: StateSamples.id(atIndex: index), index: index))
            #expect(back.loadedPageKeys.count * pageSize > index, "the loaded pages hold the anchor")
            #expect(back.restoredIndex(in: StateSamples.ids(0..<130)) == index)
        }
    }

    @Test("a state saved with page size 10 restores at the same post with size 20")
    func infinitePageSizeChange() {
        // Given infinite scroll saved with size 10 at post #37, 50 posts loaded
        let saved = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)

        // When this run uses pages of 20
        let resized = saved.resized(to: 20, firstPageKey: .number(1))

        // Then the anchor's absolute place survives, and 3 pages of 20 rebuild the 50 posts
        #expect(resized.pageSize == 20)
        #expect(resized.anchor == ScrollAnchor(postID: 1036, index: 36))
        #expect(resized.loadedPageKeys == [.number(1), .number(2), .number(3)])
        #expect(resized.nextPageKey == .number(4))
        #expect(resized.loadedPostIDs == saved.loadedPostIDs)
        #expect(resized.restoredIndex(in: StateSamples.ids(0..<60)) == 36)
        // And paged mode at size 20 opens page 2.
        #expect(resized.switched(to: .paged, pageSize: 20, firstPageKey: .number(1)).currentPage == 2)
    }

    @Test("a paged state saved with one size opens the page holding the same post with another")
    func pagedPageSizeChange() {
        // Given page 4 of 10, the reader at post #37
        let saved = StateSamples.paged(page: 4, pageSize: 10, indexInPage: 6)

        // When this run uses pages of 5, then page 8 holds post #37, at index 1 on it
        let smaller = saved.resized(to: 5, firstPageKey: .number(1))
        #expect(smaller.currentPage == 8)
        #expect(smaller.currentPageKey == .number(8))
        #expect(smaller.loadedPostIDs == StateSamples.ids(35..<40))
        #expect(smaller.restoredIndex(in: StateSamples.ids(35..<40)) == 1)

        // When pages of 20, then page 2 holds it, at index 16, though its first posts were never seen
        let larger = saved.resized(to: 20, firstPageKey: .number(1))
        #expect(larger.currentPage == 2)
        #expect(larger.loadedPostIDs.isEmpty)
        #expect(larger.restoredIndex(in: StateSamples.ids(20..<40)) == 16)
    }

    @Test("offset backends get offset keys for the new page size")
    func offsetKeys() {
        let saved = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)
        let paged = saved.switched(to: .paged, pageSize: 20, firstPageKey: .offset(0))
        #expect(paged.currentPage == 2)
        #expect(paged.currentPageKey == .offset(20))
        #expect(paged.loadedPageKeys == [.offset(0), .offset(20)])
    }

    @Test("cursor backends keep the cursors they walked and restart where they must")
    func cursorKeys() {
        // Given infinite scroll over a cursor backend: 5 pages of 10 walked, the 6th next
        var saved = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)
        saved.loadedPageKeys = [.cursor(nil), .cursor("b"), .cursor("c"), .cursor("d"), .cursor("e")]
        saved.nextPageKey = .cursor("f")

        // When switched to pages of the same size, then page 4's cursor is known
        let paged = saved.switched(to: .paged, pageSize: 10, firstPageKey: .cursor(nil))
        #expect(paged.currentPage == 4)
        #expect(paged.currentPageKey == .cursor("d"))
        #expect(paged.loadedPageKeys == saved.loadedPageKeys + [.cursor("f")])

        // When the page size changes, then no cursor past the first can be known
        let resizedPaged = saved.switched(to: .paged, pageSize: 20, firstPageKey: .cursor(nil))
        #expect(resizedPaged.currentPage == 2)
        #expect(resizedPaged.currentPageKey == nil)
        #expect(resizedPaged.loadedPageKeys == [.cursor(nil)])

        // And infinite scroll starts again from the first page, keeping the anchor
        let resized = saved.resized(to: 20, firstPageKey: .cursor(nil))
        #expect(resized.loadedPageKeys.isEmpty)
        #expect(resized.nextPageKey == .cursor(nil))
        #expect(!resized.endReached)
        #expect(resized.anchor == saved.anchor)

        // And from a page whose cursors were walked, infinite scroll reloads pages 1…4 and
        // continues with page 5's cursor, known from the walk
        let back = paged.switched(to: .infinite, pageSize: 10, firstPageKey: .cursor(nil))
        #expect(back.loadedPageKeys == [.cursor(nil), .cursor("b"), .cursor("c"), .cursor("d")])
        #expect(back.nextPageKey == .cursor("e"))

        // And when page 5's cursor is not known, page 4 is loaded next to learn it
        var walked = paged
        walked.loadedPageKeys = Array(saved.loadedPageKeys.prefix(4))
        let fromWalked = walked.switched(to: .infinite, pageSize: 10, firstPageKey: .cursor(nil))
        #expect(fromWalked.loadedPageKeys == [.cursor(nil), .cursor("b"), .cursor("c")])
        #expect(fromWalked.nextPageKey == .cursor("d"))
    }

    @Test("the end of the list is carried across")
    func endOfList() {
        // Given all 45 posts loaded, the end reached
        let ended = StateSamples.infinite(loaded: 45, pageSize: 10, anchorIndex: 44, totalCount: 45, endReached: true)

        // Then page 5 is the last, page 4 is not
        let lastPage = ended.switched(to: .paged, pageSize: 10, firstPageKey: .number(1))
        #expect(lastPage.currentPage == 5)
        #expect(lastPage.endReached)
        var earlier = ended
        earlier.anchor = ScrollAnchor(postID: 1036, index: 36)
        #expect(!earlier.switched(to: .paged, pageSize: 10, firstPageKey: .number(1)).endReached)

        // And back in infinite scroll, nothing follows page 5
        let back = lastPage.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1))
        #expect(back.loadedPageKeys.count == 5)
        #expect(back.nextPageKey == nil)
        #expect(back.endReached)

        // Without a total the end is still known from the reached end
        var noTotal = ended
        noTotal.totalCount = nil
        #expect(noTotal.switched(to: .paged, pageSize: 10, firstPageKey: .number(1)).endReached)
        #expect(noTotal.resized(to: 20, firstPageKey: .number(1)).nextPageKey == nil)
    }

    @Test("nothing changes when neither mode nor page size does")
    func identity() {
        let state = StateSamples.infinite()
        #expect(state.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1)) == state)
        #expect(state.resized(to: 10, firstPageKey: .cursor(nil)) == state)
    }

    @Test("a reader who saw nothing yet opens page 1, or the first page")
    func noAnchor() {
        let fresh = ListState(
            mode: .infinite, backendIdentity: StateSamples.backend, pageSize: 10, nextPageKey: .number(1))
        let paged = fresh.switched(to: .paged, pageSize: 10, firstPageKey: .number(1))
        #expect(paged.currentPage == 1)
        #expect(paged.currentPageKey == .number(1))
        #expect(paged.anchor == nil)
        let back = paged.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1))
        #expect(back.loadedPageKeys.isEmpty)
        #expect(back.nextPageKey == .number(1))
        #expect(!back.endReached)
    }

    @Test("absurd places from a hand-edited file neither hang nor trap")
    func absurdPlaces() {
        // Given a page far beyond anything real
        var paged = StateSamples.paged()
        paged.currentPage = 1_000_000_000_000
        paged.anchor = ScrollAnchor(postID: 999_999, index: Int.max - 1)

        // Then infinite scroll lists a bounded number of pages and goes on from there
        let infinite = paged.switched(to: .infinite, pageSize: 10, firstPageKey: .number(1))
        #expect(infinite.loadedPageKeys.count <= 10_000)
        #expect(infinite.nextPageKey != nil)
        #expect(infinite.restoredIndex(in: [1, 2, 3]) == 2)
        #expect(paged.restoredIndex(in: [1, 2, 3]) != nil)
        #expect(infinite.switched(to: .paged, pageSize: 7, firstPageKey: .offset(0)).currentPage != nil)
    }
}
