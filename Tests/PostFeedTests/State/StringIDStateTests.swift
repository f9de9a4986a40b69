import Foundation
import Testing

@testable import PostFeed

/// Issue 32, item 1: state files keep string ids, and files of versions 1 and 2 (integer
/// ids) still load.
@Suite("List state with string ids")
struct StringIDStateTests {
    @Test("string ids, large numbers and runs round-trip in version 3; integer runs stay compact")
    func roundTrip() throws {
        var state = StateSamples.infinite(loaded: 0, pageSize: 10)
        let ids: [PostID] = [1, 2, 3, "t3_1abc", "109876543210987654321", 900, 899, "042", 5]
        state.loadedPostIDs = ids
        state.anchor = ScrollAnchor(postID: "t3_1abc", index: 3)
        state.seenPostIDs = [1, 2, 3, "t3_1abc", "109876543210987654321"]
        state.loadedPageKeys = [.number(1)]
        state.loadedPageCounts = [ids.count]
        state.nextPageKey = .number(2)

        let data = try state.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""version" : 3"#), "\(text)")
        let compact = text.filter { !$0.isWhitespace }
        #expect(compact.contains(#""loadedPostIDs":[[1,3],"t3_1abc","109876543210987654321",[900,899],"042",5]"#), "\(text)")
        #expect(compact.contains(#""postID":"t3_1abc""#), "\(text)")
        #expect(compact.contains(#""seenPostIDs":[[1,3],"109876543210987654321","t3_1abc"]"#), "\(text)")

        let decoded = try ListState(jsonData: data)
        #expect(decoded.loadedPostIDs == ids)
        #expect(decoded.anchor == state.anchor)
        #expect(decoded.seenPostIDs == state.seenPostIDs)
        #expect(decoded.seenPostIDs.contains("t3_1abc") && decoded.seenPostIDs.contains(2) && !decoded.seenPostIDs.contains("2a"))
    }

    @Test("a version 2 file (integer ids, runs) loads through the store and is saved as version 3", arguments: [1, 2])
    func versionTwoMigrates(version: Int) throws {
        // Given a file as version 2 (or 1) wrote it, integer ids only
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let written = """
            {"anchor":{"index":12,"postID":13},"backendIdentity":"\(StateSamples.backend)","currentPage":null,
             "currentPageKey":null,"endReached":false,"generation":4,"loadedPageCounts":[10,10],
             "loadedPageKeys":[{"number":1},{"number":2}],"loadedPostIDs":\(version == 2 ? "[[1,19],777]" : "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,777]"),
             "mode":"infinite","nextPageKey":{"number":3},"pageSize":10,"savedAt":"2024-05-01T10:00:00Z",
             "seenPostIDs":[[1,13]],"totalCount":247,"version":\(version)}
            """
        let store = ListStateStore(cacheRoot: folder.url)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try Data(written.utf8).write(to: store.fileURL(for: .infinite))

        // When it is loaded
        let loaded = store.load(mode: .infinite, backendIdentity: StateSamples.backend)

        // Then the place is the same, the ids the ids of the numbers
        guard case .restored(let state) = loaded else {
            Issue.record("a version \(version) file was not restored: \(loaded)")
            return
        }
        #expect(state.loadedPostIDs == Array(1...19) + [777])
        #expect(state.anchor == ScrollAnchor(postID: 13, index: 12))
        #expect(state.seenPostIDs.contains(13) && !state.seenPostIDs.contains(14))
        #expect(state.version == ListState.currentVersion)

        // And saving writes version 3, integer ids still as runs
        try store.save(state, basedOn: state.generation)
        let text = String(decoding: try Data(contentsOf: store.fileURL(for: .infinite)), as: UTF8.self)
        let compact = text.filter { !$0.isWhitespace }
        #expect(compact.contains(#""loadedPostIDs":[[1,19],777]"#), "\(text)")
        #expect(text.contains(#""version" : 3"#), "\(text)")
    }

    @Test("packed ids round-trip string ids between integer ones")
    func packedStrings() {
        let ids: [PostID] = [1, 2, "t3_1abc", 3, "109876543210987654321", "-05", -5, 981, 980]
        let packed = PackedPostIDs(ids)
        #expect(packed.ids == ids)
        #expect(packed.firstIndex(of: "t3_1abc") == 2)
        #expect(packed.firstIndex(of: 980) == 8)
    }

    @Test("a state string id that is no id is refused, naming it")
    func badStringID() throws {
        var object = try #require(
            JSONSerialization.jsonObject(with: StateSamples.infinite(loaded: 20, pageSize: 10).jsonData()) as? [String: Any])
        object["loadedPostIDs"] = [[1000, 1018], ""]
        let data = try JSONSerialization.data(withJSONObject: object)
        let thrown = #expect(throws: DecodingError.self) { try ListState(jsonData: data) }
        let message = ListState.describeDecodingFailure(try #require(thrown))
        #expect(message.contains("is empty"), "\(message)")
    }
}
