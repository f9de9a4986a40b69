import Foundation
import PostFeed
import Testing

/// The place is what was shown (issue 30): ``ListState/shownLength`` on disk and across
/// merges, and the one popularity ranking.
@Suite("what was shown: shownLength and the popularity ranking")
struct ShownLengthTests {
    @Test("shownLength round-trips, is written only when set, and a negative one is refused")
    func coding() throws {
        var state = StateSamples.infinite(loaded: 50, anchorIndex: 20)
        let without = try #require(String(data: try state.jsonData(), encoding: .utf8))
        #expect(!without.contains("shownLength"), "older readers' files keep their keys")

        state.shownLength = 27
        let data = try state.jsonData()
        #expect(try ListState(jsonData: data).shownLength == 27)

        state.shownLength = -1
        let negative = try state.jsonData()
        #expect(throws: (any Error).self) { try ListState(jsonData: negative) }
    }

    @Test("an overtaken save keeps the further shown length of the two")
    func mergeKeepsTheFurthestShown() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        // Given: both loaded generation 1; the other showed 60 posts since
        let store = ListStateStore(cacheRoot: folder.url)
        let first = try store.save(StateSamples.infinite(loaded: 20, anchorIndex: 0), basedOn: 0)
        var other = StateSamples.infinite(loaded: 60, anchorIndex: 40)
        other.shownLength = 60
        _ = try store.save(other, basedOn: first.generation)

        // When: the first saves 80 loaded posts (a catalog walk) of which it showed 13
        var mine = StateSamples.infinite(loaded: 80, anchorIndex: 2)
        mine.shownLength = 13
        let saved = try store.save(mine, basedOn: first.generation)

        // Then: its 80 posts stay loaded, and the next list starts after post 60
        #expect(saved.state.loadedPostIDs.count == 80)
        #expect(saved.state.shownLength == 60)
    }

    @Test("popularity: most popular first, none and non-finite lowest, ties in backend order")
    func ranking() {
        let popularity: [Double?] = [nil, -1, 2, .nan, .infinity, -3, 0.5, 2, -.infinity]
        let order = PopularityRanking.ordered(popularity.indices) { (popularity[$0], $0) }
        #expect(order == [2, 7, 6, 1, 5, 0, 3, 4, 8])
        #expect(PopularityRanking.rankValue(nil) == -.infinity)
        #expect(PopularityRanking.rankValue(.nan) == -.infinity)
        #expect(PopularityRanking.rankValue(0) == 0)
    }
}
