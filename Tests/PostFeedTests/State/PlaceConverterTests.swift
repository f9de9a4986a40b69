import PostFeed
import Testing

@Suite("Place math")
struct PlaceConverterTests {
    @Test(
        "the page of a 1-based position is ceil(position / pageSize)",
        arguments: [(37, 10, 4), (40, 10, 4), (41, 10, 5), (1, 10, 1), (10, 10, 1), (11, 10, 2), (37, 20, 2), (37, 1, 37)])
    func pageOfPosition(position: Int, pageSize: Int, page: Int) {
        #expect(PlaceConverter.page(forPosition: position, pageSize: pageSize) == page)
        #expect(PlaceConverter.page(forIndex: position - 1, pageSize: pageSize) == page)
    }

    @Test("post #37 is the 7th on page 4 of 10, and back")
    func positionOnPage() {
        #expect(PlaceConverter.position(page: 4, indexInPage: 6, pageSize: 10) == 37)
        #expect(PlaceConverter.firstIndex(ofPage: 4, pageSize: 10) == 30)
        #expect(ScrollAnchor(postID: 7, page: 4, indexInPage: 6, pageSize: 10) == ScrollAnchor(postID: 7, index: 36))
        #expect(ScrollAnchor(postID: 7, index: 36).position == 37)
    }

    @Test("nonsense is clamped and huge numbers saturate instead of trapping")
    func clampsAndSaturates() {
        #expect(PlaceConverter.page(forPosition: 0, pageSize: 10) == 1)
        #expect(PlaceConverter.page(forPosition: -5, pageSize: 10) == 1)
        #expect(PlaceConverter.page(forPosition: 5, pageSize: 0) == 5)
        #expect(PlaceConverter.page(forIndex: Int.max, pageSize: 1) == Int.max)
        #expect(PlaceConverter.firstIndex(ofPage: Int.max, pageSize: 100) == Int.max)
        #expect(PlaceConverter.firstIndex(ofPage: 0, pageSize: 100) == 0)
        #expect(PlaceConverter.position(page: Int.max, indexInPage: Int.max, pageSize: Int.max) == Int.max)
    }
}

@Suite("Restoring the anchor")
struct AnchorRestoreTests {
    let saved: [PostID] = [10, 11, 12, 13, 14, 15, 16]

    @Test("the anchor post is found where it is now")
    func anchorPresent() {
        // Given the reader was at post 13 (index 3), and two posts were added at the top
        let anchor = ScrollAnchor(postID: 13, index: 3)
        let current: [PostID] = [8, 9] + saved

        // Then the reader goes back to post 13, now at index 5
        #expect(PlaceConverter.restoredIndex(of: anchor, savedIDs: saved, currentIDs: current) == 5)
    }

    @Test("a removed anchor falls to the next surviving post")
    func nextNeighbour() {
        // Given post 13 is gone
        let current: [PostID] = [10, 11, 12, 14, 15, 16]
        // Then post 14, next after it, is shown (at index 3)
        let index = PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 13, index: 3), savedIDs: saved, currentIDs: current)
        #expect(index == 3)
        #expect(current[3] == 14)
    }

    @Test("when the next posts are gone too, the nearer previous one wins")
    func previousNeighbour() {
        // Given posts 13, 14 and 15 are gone, 12 is one before, 16 three after
        let current: [PostID] = [10, 11, 12, 16]
        let index = PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 13, index: 3), savedIDs: saved, currentIDs: current)
        #expect(index == 2)
    }

    @Test("at equal distance the following post wins")
    func tieGoesToTheFollowingPost() {
        // Given 12, 13 and 14 are gone: 11 and 15 are both two away from 13
        let current: [PostID] = [10, 11, 15, 16]
        let index = PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 13, index: 3), savedIDs: saved, currentIDs: current)
        #expect(index == 2)
        #expect(current[2] == 15)
    }

    @Test("neighbours are searched in the saved order, even when the list was reordered")
    func savedOrder() {
        // Given 13 is gone and the survivors are now in reverse order
        let current: [PostID] = [16, 15, 14, 12, 11, 10]
        // Then 14, the post after 13 in the saved order, is shown where it is now
        #expect(PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 13, index: 3), savedIDs: saved, currentIDs: current) == 2)
    }

    @Test("when every saved post is gone, the old index is clamped")
    func allGone() {
        let anchor = ScrollAnchor(postID: 13, index: 3)
        #expect(PlaceConverter.restoredIndex(of: anchor, savedIDs: saved, currentIDs: [90, 91, 92, 93, 94]) == 3)
        #expect(PlaceConverter.restoredIndex(of: anchor, savedIDs: saved, currentIDs: [90, 91]) == 1)
        #expect(PlaceConverter.restoredIndex(of: anchor, savedIDs: [], currentIDs: [90, 91]) == 1)
        #expect(PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 1, index: -4), savedIDs: [], currentIDs: [90]) == 0)
    }

    @Test("an empty list has no index")
    func emptyList() {
        #expect(PlaceConverter.restoredIndex(of: ScrollAnchor(postID: 13, index: 3), savedIDs: saved, currentIDs: []) == nil)
    }

    @Test("a paged state restores within its page")
    func pagedState() {
        // Given the reader was on page 4 of 10 at post #37 (id 1036), and that post is gone
        let state = StateSamples.paged(page: 4, pageSize: 10, indexInPage: 6)
        let page = StateSamples.ids(30..<40).filter { $0 != 1036 }

        // Then the next post, 1037, is shown: index 6 within the page
        #expect(state.restoredIndex(in: page) == 6)
        #expect(state.restoredIndex(in: StateSamples.ids(30..<40)) == 6)
        #expect(state.restoredIndex(in: [1, 2, 3]) == 2, "nothing survived: the index in the page, clamped")
    }

    @Test("an infinite state restores in the whole list")
    func infiniteState() {
        let state = StateSamples.infinite(anchorIndex: 36)
        let list = StateSamples.ids(0..<50)
        #expect(state.restoredIndex(in: list) == 36)
        let without1036 = list.filter { $0 != 1036 }
        #expect(state.restoredIndex(in: without1036) == 36, "1037 moved up to index 36")
        let without1036And1037 = list.filter { $0 != 1036 && $0 != 1037 }
        #expect(state.restoredIndex(in: without1036And1037) == 35, "1035 is nearer than 1038")
    }
}
