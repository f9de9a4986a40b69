import Foundation
import PostFeed
import Testing

/// State files that parse but cannot be right are set aside like every other unusable
/// file (`*.corrupt-<time>`, the reason in one line naming the field, a fresh start).
@Suite("List state: semantically invalid files")
struct ListStateValidationTests {
    /// `sample`'s JSON with `edit` applied to its top-level object, as bytes.
    static func edited(_ sample: ListState, _ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(JSONSerialization.jsonObject(with: try sample.jsonData()) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// `sample`'s JSON text with `field`'s value text replaced, for numbers JSONSerialization
    /// would not write as given.
    static func replacing(_ sample: ListState, _ old: String, with new: String) throws -> Data {
        let text = String(decoding: try sample.jsonData(), as: UTF8.self)
        #expect(text.contains(old), "\(old) is not in \(text)")
        return Data(text.replacingOccurrences(of: old, with: new).utf8)
    }

    static func offsetsState(_ keys: [Int], next: Int?) -> ListState {
        var state = StateSamples.infinite(loaded: 30, pageSize: 10, anchorIndex: 5)
        state.loadedPageKeys = keys.map { .offset($0) }
        state.nextPageKey = next.map { .offset($0) }
        return state
    }

    static let cases: [ListStateStoreUnusableFileTests.BadFile] = [
        .init(name: "a post listed twice", mode: .infinite, kind: .corrupt, says: "loadedPostIDs lists post 1003 twice (at indexes 3 and 4)") {
            var state = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 1)
            state.loadedPostIDs[4] = 1003
            return try edited(state) { _ in }
        },
        .init(name: "next page 2^63-1", mode: .infinite, kind: .corrupt, says: "nextPageKey is page 9223372036854775807, but the 5 pages before it make it page 6") {
            var state = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)
            state.nextPageKey = .number(Int.max)
            return try edited(state) { _ in }
        },
        .init(name: "a page number out of order", mode: .infinite, kind: .corrupt, says: "loadedPageKeys[2] is page 7") {
            var state = StateSamples.infinite(loaded: 50, pageSize: 10, anchorIndex: 36)
            state.loadedPageKeys[2] = .number(7)
            return try edited(state) { _ in }
        },
        .init(name: "a next offset past the pages", mode: .infinite, kind: .corrupt, says: "nextPageKey is offset 1000, which the pages before it cannot lead to") {
            try edited(offsetsState([0, 10, 20], next: 1000)) { _ in }
        },
        .init(name: "a paged key that is another page", mode: .paged, kind: .corrupt, says: "currentPageKey is page 9, not currentPage 4") {
            var state = StateSamples.paged(page: 4)
            state.currentPageKey = .number(9)
            return try edited(state) { _ in }
        },
        .init(name: "anchor index 2^70", mode: .infinite, kind: .corrupt, says: "anchor.index: 1180591620717411303424 is out of range") {
            try replacing(StateSamples.infinite(anchorIndex: 36), #""index" : 36"#, with: #""index" : 1180591620717411303424"#)
        },
        .init(name: "currentPage 2.5", mode: .paged, kind: .corrupt, says: "currentPage: 2.5 is not a whole number") {
            try replacing(StateSamples.paged(page: 4), #""currentPage" : 4"#, with: #""currentPage" : 2.5"#)
        },
        .init(name: "a post id 1.5", mode: .infinite, kind: .corrupt, says: "loadedPostIDs[2]: 1.5 is not a whole number") {
            try edited(StateSamples.infinite()) { object in
                // Written as plain numbers (version 1's form, still read): the sample's ids
                // are one run, `[[1000, 1049]]`, in the current form.
                var ids: [Any] = StateSamples.ids(0..<50).compactMap(\.integerValue)
                ids[2] = 1.5
                object["loadedPostIDs"] = ids
            }
        },
        .init(name: "a run's end 1.5", mode: .infinite, kind: .corrupt, says: "loadedPostIDs[0][1]: 1.5 is not a whole number") {
            try edited(StateSamples.infinite()) { object in
                object["loadedPostIDs"] = [[1000, 1.5]]
            }
        },
    ]

    @Test("an invalid file is moved aside, the field and the problem named in one line, and a fresh start", arguments: cases)
    func invalidFile(_ bad: ListStateStoreUnusableFileTests.BadFile) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url, now: StateSamples.clock)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let file = store.fileURL(for: bad.mode)
        let bytes = try bad.bytes()
        try bytes.write(to: file)

        let result = store.load(mode: bad.mode, backendIdentity: StateSamples.backend)

        guard case .discarded(let reason, let movedTo) = result else {
            Issue.record("expected a discard, got \(result)")
            return
        }
        #expect(reason.kind == bad.kind)
        #expect(reason.message.contains(bad.says), "\(reason.message)")
        #expect(!reason.message.contains("not valid JSON"), "\(reason.message)")
        #expect(!reason.message.contains("\n"))
        let aside = try #require(movedTo)
        #expect(aside.lastPathComponent == "\(bad.mode.stateFileName).corrupt-20250501T100000Z")
        #expect(try Data(contentsOf: aside) == bytes)
        #expect(store.load(mode: bad.mode, backendIdentity: StateSamples.backend) == .none)
    }

    @Test("offsets that real walks produce are accepted: a short page, and pages a mode switch added after one")
    func realOffsetsAreValid() throws {
        for (keys, next) in [([0, 10, 20], 30), ([0, 10, 15], 25), ([0, 10, 15, 30], 40), ([], 0)] as [([Int], Int)] {
            var state = Self.offsetsState(keys, next: next)
            if keys.isEmpty {
                state.loadedPostIDs = []
                state.anchor = nil
            } else {
                state.loadedPostIDs = StateSamples.ids(0..<min(30, keys.count * 10))
            }
            let decoded = try ListState(jsonData: try state.jsonData())
            #expect(decoded.loadedPageKeys == state.loadedPageKeys, "\(keys) next \(next)")
        }
    }
}
