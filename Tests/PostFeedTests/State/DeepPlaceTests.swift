import Foundation
import PostFeed
import Testing

/// Issue 29, item 2: a deep place was written (16,777,861 bytes for 747,700 posts) that
/// the reader refuses (over 16 MiB), so the next run started at post 1. The writer must
/// never write what the reader refuses.
@Suite("Deep places: the writer never writes what the reader refuses")
struct DeepPlaceTests {
    /// An infinite place of `ids` in pages of `pageSize` keyed by number, each page's
    /// count known, the reader at `anchorIndex`, every post seen.
    static func place(_ ids: [PostID], pageSize: Int, anchorIndex: Int) -> ListState {
        let pages = (ids.count + pageSize - 1) / pageSize
        var state = ListState(
            mode: .infinite, backendIdentity: StateSamples.backend, pageSize: pageSize, savedAt: StateSamples.savedAt,
            anchor: ScrollAnchor(postID: ids[anchorIndex], index: anchorIndex), totalCount: nil, endReached: false,
            seenPostIDs: PostIDSet(ids.prefix(anchorIndex + 1)), loadedPostIDs: ids,
            loadedPageKeys: (0..<pages).map { .number($0 + 1) }, nextPageKey: .number(pages + 1))
        state.loadedPageCounts = (0..<pages).map { min(pageSize, ids.count - $0 * pageSize) }
        return state
    }

    @Test("750,000 consecutive loaded ids encode under the limit and load back equal")
    func deepPlaceRoundTrip() throws {
        // Given a place 750,000 posts deep (7-digit ids, 4 a page: as a plain list of ids
        // this was over 17 MB)
        let ids: [PostID] = Array(1_000_001...1_750_000)
        let state = Self.place(ids, pageSize: 4, anchorIndex: ids.count - 3)

        // When it is encoded
        let data = try state.jsonData()

        // Then it fits the reader's limit, and decodes back equal
        #expect(data.count <= ListStateStore.maximumFileSize, "\(data.count) bytes")
        let decoded = try ListState(jsonData: data)
        #expect(decoded == state)
    }

    @Test("a deep place saved by the store is restored by the next run's store")
    func deepPlaceThroughTheStore() throws {
        // Given a deep place, newest first (ids counting down)
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let ids: [PostID] = Array((2_000_000...2_749_999).reversed())
        let state = Self.place(ids, pageSize: 4, anchorIndex: 700_000)

        // When one store saves it and a fresh one (the next run) loads it
        try ListStateStore(cacheRoot: folder.url).save(state)
        let loaded = ListStateStore(cacheRoot: folder.url).load(mode: .infinite, backendIdentity: StateSamples.backend)

        // Then the place comes back as it was
        #expect(loaded == .restored(state))
    }

    @Test(
        "scattered ids too many for one file: the store writes what the reader takes back, or nothing",
        arguments: [0, 1_400_000, 1_499_999])
    func adversarialIDsNeverMakeAnUnreadableFile(anchorIndex: Int) throws {
        // Given 1,500,000 ids no two of which are consecutive (about 22 MB as a list), the
        // reader at `anchorIndex`
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let ids = (0..<1_500_000).map { PostID(10_000_000 + 2 * $0) }
        let state = Self.place(ids, pageSize: 1_000, anchorIndex: anchorIndex)

        // When it is saved
        let store = ListStateStore(cacheRoot: folder.url)
        var saveError: ListStateError?
        var notices: [String] = []
        do {
            notices = try store.save(state, basedOn: 0).notices
        } catch {
            saveError = error
        }

        // Then either nothing was written (and the error says why), or the file is one the
        // next run restores, with the reader's place
        let file = store.fileURL(for: .infinite)
        if let saveError {
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(saveError)")
            #expect(saveError.message.contains("nothing was written"), "\(saveError)")
            return
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size <= ListStateStore.maximumFileSize)
        let loaded = ListStateStore(cacheRoot: folder.url).load(mode: .infinite, backendIdentity: StateSamples.backend)
        guard case .restored(let restored) = loaded else {
            Issue.record("the file written was not restored: \(loaded)")
            return
        }
        #expect(restored.anchor == state.anchor)
        #expect(restored.seenPostIDs == state.seenPostIDs)
        #expect(!notices.isEmpty, "a trimmed place is said")
    }

    @Test("a version 1 file, its loaded ids a plain list, still loads; the next save writes runs")
    func versionOneFileStillLoads() throws {
        // Given a state file as version 1 wrote it: every loaded id a plain number
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let state = StateSamples.infinite(loaded: 30, pageSize: 10)
        var object = try #require(JSONSerialization.jsonObject(with: try state.jsonData()) as? [String: Any])
        object["version"] = 1
        object["loadedPostIDs"] = state.loadedPostIDs.compactMap(\.integerValue)
        let store = ListStateStore(cacheRoot: folder.url)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object).write(to: store.fileURL(for: .infinite))

        // When it is loaded
        let loaded = store.load(mode: .infinite, backendIdentity: StateSamples.backend)

        // Then the place is restored
        guard case .restored(let restored) = loaded else {
            Issue.record("a version 1 file was not restored: \(loaded)")
            return
        }
        #expect(restored.loadedPostIDs == state.loadedPostIDs)
        #expect(restored.anchor == state.anchor)

        // And saving it again writes the current version, the ids as one run
        try store.save(restored, basedOn: restored.generation)
        let text = String(decoding: try Data(contentsOf: store.fileURL(for: .infinite)), as: UTF8.self)
        #expect(text.contains("\"version\" : \(ListState.currentVersion)"), "\(text)")
        #expect(ListState.currentVersion >= 2)
        let written = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let runs = try #require(written["loadedPostIDs"] as? [Any])
        #expect(runs.count == 1, "ids 1000…1029 are one run: \(runs)")
    }

    @Test("runs: consecutive ids up or down are pairs, others plain numbers, in order")
    func runsForm() throws {
        // Given ids with runs up, down, single ids and repeats of a single step
        var state = StateSamples.infinite(loaded: 10, pageSize: 10, anchorIndex: 0)
        state.loadedPostIDs = Array([1, 2, 3, 777, 900, 899, 898, 5, 7, Int.max])
        state.seenPostIDs = []

        // When encoded
        let object = try #require(JSONSerialization.jsonObject(with: try state.jsonData()) as? [String: Any])
        let written = try JSONSerialization.data(withJSONObject: try #require(object["loadedPostIDs"]))

        // Then the runs are pairs, and the list comes back in order
        #expect(String(decoding: written, as: UTF8.self) == "[[1,3],777,[900,898],5,7,\(Int.max)]")
        #expect(try ListState(jsonData: try state.jsonData()).loadedPostIDs == state.loadedPostIDs)
    }

    @Test("a run naming more ids than a state may hold is refused, not expanded")
    func hugeRunIsRefused() throws {
        // Given a file whose one run names 10^18 ids
        var object = try #require(
            JSONSerialization.jsonObject(with: try StateSamples.infinite(loaded: 10, pageSize: 10, anchorIndex: 0).jsonData())
                as? [String: Any])
        object["loadedPostIDs"] = [[1, 1_000_000_000_000_000_000]]
        let data = try JSONSerialization.data(withJSONObject: object)

        // Then it does not decode
        let decode = { try ListState(jsonData: data) }
        #expect(throws: DecodingError.self, performing: decode)
    }
}
