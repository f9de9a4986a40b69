import Foundation
import PostFeed
import Testing

@Suite("List state JSON")
struct ListStateCodingTests {
    @Test("an infinite state survives the round trip, every field")
    func infiniteRoundTrip() throws {
        // Given a state using every field, with each page key style
        var state = StateSamples.infinite()
        state.loadedPageKeys = [.cursor(nil), .cursor("b2"), .offset(20), .link(URL(string: "https://example.com/p?page=4"))]
        state.nextPageKey = .link(nil)
        state.seenPostIDs = [1, 2, 3, 7, -4]

        // When it is encoded and decoded
        let decoded = try ListState(jsonData: try state.jsonData())

        // Then nothing changed
        #expect(decoded == state)
    }

    @Test("a paged state survives the round trip")
    func pagedRoundTrip() throws {
        let state = StateSamples.paged()
        #expect(try ListState(jsonData: try state.jsonData()) == state)
    }

    @Test("the file is pretty, sorted, stable and shows every field")
    func readableJSON() throws {
        // Given an infinite state at the end of the list
        let state = StateSamples.infinite(loaded: 3, pageSize: 2, anchorIndex: 1, totalCount: 3, endReached: true)

        // When it is encoded twice
        let data = try state.jsonData()
        let text = try #require(String(data: data, encoding: .utf8))

        // Then the bytes are the same, keys are sorted at the top level, nulls are explicit
        #expect(try state.jsonData() == data)
        let topLevelKeys = text.split(separator: "\n")
            .filter { $0.hasPrefix("  \"") }
            .compactMap { $0.dropFirst(3).split(separator: "\"").first.map(String.init) }
        #expect(topLevelKeys == [
            "anchor", "backendIdentity", "currentPage", "currentPageKey", "endReached", "generation", "loadedPageCounts",
            "loadedPageKeys", "loadedPostIDs", "mode", "nextPageKey", "pageSize", "savedAt", "seenPostIDs", "totalCount", "version",
        ])
        #expect(text.contains("\"savedAt\" : \"2025-05-01T10:00:00Z\""))
        #expect(text.contains("\"nextPageKey\" : null"))
        #expect(text.contains("\"mode\" : \"infinite\""))
        #expect(text.contains("http://127.0.0.1:6969/api/posts"), "slashes are not escaped")
        #expect(text.hasSuffix("}\n"))
    }

    @Test(
        "page keys are written as one readable key per style",
        arguments: [
            (PageKey.number(4), #"{"number":4}"#),
            (.offset(40), #"{"offset":40}"#),
            (.cursor("abc"), #"{"cursor":"abc"}"#),
            (.cursor(nil), #"{"cursor":null}"#),
            (.link(URL(string: "https://api.github.com/x?page=2")), #"{"link":"https://api.github.com/x?page=2"}"#),
            (.link(nil), #"{"link":null}"#),
        ])
    func pageKeyForm(key: PageKey, json: String) throws {
        // Given a paged state whose page key is `key`
        var state = StateSamples.paged()
        state.currentPageKey = key

        // When encoded, then the key reads as expected, and comes back
        let object = try #require(JSONSerialization.jsonObject(with: try state.jsonData()) as? [String: Any])
        let keyObject = try #require(object["currentPageKey"])
        let written = try JSONSerialization.data(withJSONObject: keyObject, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(data: written, encoding: .utf8) == json)
        #expect(try ListState(jsonData: try state.jsonData()).currentPageKey == key)
    }

    @Test(
        "decoding rejects states that cannot be restored",
        arguments: [
            ("pageSize", "0"),
            ("pageSize", "\"ten\""),
            ("currentPage", "0"),
            ("anchor", #"{"postID":1,"index":-1}"#),
            ("savedAt", "\"yesterday\""),
            ("currentPageKey", #"{"number":1,"offset":0}"#),
            ("currentPageKey", #"{"link":""}"#),
            ("seenPostIDs", "[[9,1]]"),
            ("mode", "\"sideways\""),
            ("totalCount", "-1"),
        ])
    func rejectsNonsense(field: String, value: String) throws {
        // Given a valid paged state with one field replaced
        let object = try #require(JSONSerialization.jsonObject(with: try StateSamples.paged().jsonData()) as? [String: Any])
        var broken = object
        broken[field] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: broken)

        // Then it does not decode
        #expect(throws: DecodingError.self) { try ListState(jsonData: data) }
    }

    @Test("a paged state without a page does not decode")
    func pagedNeedsAPage() throws {
        var state = StateSamples.paged()
        state.currentPage = nil
        let data = try state.jsonData()
        #expect(throws: DecodingError.self) { try ListState(jsonData: data) }
    }
}

@Suite("Seen post ids")
struct PostIDSetTests {
    @Test("ids are kept as merged ranges")
    func mergesRanges() {
        var seen = PostIDSet(Array(1...40) + [45, 50, 51, 52])
        #expect(seen.ranges == [1...40, 45...45, 50...52])
        #expect(seen.count == 44)

        seen.formUnion(Array(41...44))
        #expect(seen.ranges == [1...45, 50...52])
        seen.insert(49)
        #expect(seen.ranges == [1...45, 49...52])
        #expect(seen.contains(1) && seen.contains(45) && seen.contains(52))
        #expect(!seen.contains(0) && !seen.contains(46) && !seen.contains(53))
    }

    @Test("JSON is single ids and [first, last] pairs")
    func compactJSON() throws {
        let seen = PostIDSet(Array(1...40) + [45, 50, 51, 52])
        let data = try JSONEncoder().encode(seen)
        #expect(String(data: data, encoding: .utf8) == "[[1,40],45,[50,52]]")
        #expect(try JSONDecoder().decode(PostIDSet.self, from: data) == seen)
    }

    @Test("overlapping ranges from a hand-edited file are merged")
    func normalizesOnDecode() throws {
        let seen = try JSONDecoder().decode(PostIDSet.self, from: Data("[[5,9],[1,6],3,10]".utf8))
        #expect(seen.ranges == [1...10])
    }

    @Test("extreme ids neither trap nor overflow the count")
    func extremes() {
        var seen = PostIDSet(ranges: [Int.min...Int.max])
        #expect(seen.count == Int.max)
        seen.insert(PostID(Int.max))
        #expect(seen.ranges == [Int.min...Int.max])
        let top = PostIDSet([Int.max, Int.max - 1])
        #expect(top.ranges == [(Int.max - 1)...Int.max])
        #expect(top.count == 2)
    }
}
