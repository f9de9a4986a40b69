import Foundation
import PostFeed
import Testing

@Suite("List state store")
struct ListStateStoreTests {
    // MARK: Saving and loading

    @Test("nothing saved loads as none")
    func nothingSaved() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .none)
        #expect(store.load(mode: .paged, backendIdentity: StateSamples.backend) == .none)
    }

    @Test("each mode round-trips through its own file", arguments: ListMode.allCases)
    func roundTrip(mode: ListMode) throws {
        // Given a store in an empty cache root
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        let state = mode == .infinite ? StateSamples.infinite() : StateSamples.paged()

        // When the state is saved
        try store.save(state)

        // Then it is in State/<mode file>, readable JSON, and loads back unchanged
        let file = folder.url.appendingPathComponent("State/\(mode.stateFileName)")
        #expect(store.fileURL(for: mode).standardizedFileURL == file.standardizedFileURL)
        #expect(try Data(contentsOf: file) == state.jsonData())
        #expect(store.load(mode: mode, backendIdentity: StateSamples.backend) == .restored(state))
        // And the other mode still has nothing
        let other: ListMode = mode == .infinite ? .paged : .infinite
        #expect(store.load(mode: other, backendIdentity: StateSamples.backend) == .none)
    }

    @Test("after a save, the store loads exactly what decoding the file gives, as a fresh store does")
    func loadAfterSaveMatchesFile() throws {
        // Given states that do not survive the JSON round trip unchanged: a fractional
        // savedAt, link keys (relative to a base URL), a cursor, loaded page counts
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        let base = URL(string: "https://example.com/api/")!
        var infinite = StateSamples.infinite(loaded: 20, pageSize: 10)
        infinite.savedAt = Date(timeIntervalSince1970: 1_746_093_600.734)
        infinite.loadedPageKeys = [.link(nil), .link(URL(string: "posts?page=2", relativeTo: base))]
        infinite.loadedPageCounts = [10, 10]
        infinite.nextPageKey = .link(URL(string: "posts?page=3", relativeTo: base))
        var paged = StateSamples.paged()
        paged.savedAt = Date(timeIntervalSince1970: 1_746_093_601.5)
        paged.loadedPageKeys = [.cursor(nil), .cursor("b"), .cursor("c"), .cursor("d")]
        paged.currentPageKey = .cursor("d")

        for state in [infinite, paged] {
            // When it is saved, then loaded by the same store (which remembers what it wrote)
            try store.save(state)
            let fromFile = try ListState(jsonData: Data(contentsOf: store.fileURL(for: state.mode)))
            // Then it is what the file decodes to, and what a store that never saw it loads
            #expect(store.load(mode: state.mode, backendIdentity: StateSamples.backend) == .restored(fromFile))
            let fresh = ListStateStore(cacheRoot: folder.url)
            #expect(fresh.load(mode: state.mode, backendIdentity: StateSamples.backend) == .restored(fromFile))
            #expect(fromFile.savedAt != state.savedAt, "the sample must exercise the rounding")
        }
        // And a file changed behind the store's back is read again, not taken from memory
        var changed = infinite
        changed.anchor = ScrollAnchor(postID: StateSamples.id(atIndex: 3), index: 3)
        try ListStateStore(cacheRoot: folder.url).save(changed)
        let current = try ListState(jsonData: Data(contentsOf: store.fileURL(for: .infinite)))
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .restored(current))
        #expect(current.anchor?.index == 3)
    }

    @Test("a save replaces the previous state and leaves no temporary file")
    func replaces() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        try store.save(StateSamples.infinite(anchorIndex: 3))
        let newer = StateSamples.infinite(anchorIndex: 40)
        try store.save(newer)

        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .restored(newer))
        let namesButLock = ScratchFolder.names(in: store.directory).filter { !$0.hasPrefix(".state.lock") }
        #expect(namesButLock == ["infinite-scroll-state.json"])
    }

    @Test("a torn temporary file from a crashed save is ignored, then cleaned up")
    func tornTemporaryFile() throws {
        // Given a good state, and the half-written temporary file of a save that crashed
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        let good = StateSamples.infinite()
        try store.save(good)
        let torn = try StateSamples.infinite(anchorIndex: 2).jsonData()
        let temporary = store.directory.appendingPathComponent(".infinite-scroll-state.json.tmp-999-deadbeef")
        try torn.prefix(torn.count / 2).write(to: temporary)

        // Then the good state still loads, and nothing was moved aside
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .restored(good))
        let names = ScratchFolder.names(in: store.directory)
        let setAnythingAside = names.contains { $0.contains(".corrupt-") }
        #expect(!setAnythingAside, "\(names)")

        // And the next save removes the orphan
        try store.save(good)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }

    // MARK: Concurrency

    @Test("many tasks saving through two stores never leave an unreadable file")
    func concurrentSavers() async throws {
        // Given two stores on one cache root, as two processes would have
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let first = ListStateStore(cacheRoot: folder.url)
        let second = ListStateStore(cacheRoot: folder.url)
        // States of very different sizes, so a torn file could not pass for a whole one
        let states = (0..<40).map { StateSamples.infinite(loaded: 1 + ($0 * 97) % 2_000, anchorIndex: 0) }
        try first.save(states[0])

        // When both save from many tasks while a reader loads
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for (index, state) in states.enumerated() {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    var problems: [String] = []
                    for _ in 0..<5 {
                        do { try store.save(state) } catch { problems.append("save: \(error)") }
                    }
                    return problems
                }
            }
            group.addTask {
                var problems: [String] = []
                for _ in 0..<200 {
                    switch second.load(mode: .infinite, backendIdentity: StateSamples.backend) {
                    case .restored(let state) where states.contains(state): break
                    case let other: problems.append("load: \(other)")
                    }
                }
                return problems
            }
            var all: [String] = []
            for await problems in group { all += problems }
            return all
        }

        // Then every save worked, every load found a whole state, and nothing is left over
        #expect(outcomes.isEmpty, "\(outcomes.prefix(3))")
        guard case .restored(let last) = first.load(mode: .infinite, backendIdentity: StateSamples.backend) else {
            Issue.record("the final state did not load")
            return
        }
        #expect(states.contains(last))
        #expect(ScratchFolder.names(in: first.directory) == [".state.lock", "infinite-scroll-state.json"])
    }

    // MARK: Reset

    @Test("reset removes state files and nothing else")
    func resetRemovesOnlyState() throws {
        // Given both states, a file moved aside, a note, and the other caches
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        try store.save(StateSamples.infinite())
        try store.save(StateSamples.paged())
        let keep = [
            "State/pagination-state.json.corrupt-20250501T100000Z", "State/notes.txt",
            "ImageCache/ab/image", "PageCache/page.json", "README.md",
        ]
        for path in keep {
            let url = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }

        // When the paged state is reset, then only its file goes
        #expect(try store.reset(mode: .paged))
        #expect(store.load(mode: .paged, backendIdentity: StateSamples.backend) == .none)
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .restored(StateSamples.infinite()))

        // When everything is reset, then both state files are gone and the rest is there
        #expect(try store.resetAll())
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .none)
        for path in keep {
            #expect(try Data(contentsOf: folder.url.appendingPathComponent(path)) == Data(path.utf8), "\(path)")
        }
        // And resetting nothing says so
        #expect(try !store.resetAll())
        #expect(try !store.reset(mode: .infinite))
    }

    @Test("reset without a State folder is not an error")
    func resetNothing() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(try !ListStateStore(cacheRoot: folder.url).resetAll())
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("State").path))
    }

    // MARK: Failures

    @Test("a state that could not be restored is not saved")
    func invalidStateIsRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        var state = StateSamples.paged()
        state.currentPage = 0

        let error = try #require(throws: ListStateError.self) { try store.save(state) }

        #expect(error.code == .invalidState)
        #expect(error.message.contains("pagination-state.json"))
        #expect(error.message.contains("currentPage 0"))
        #expect(!FileManager.default.fileExists(atPath: store.fileURL(for: .paged).path))
    }

    @Test("a file where the State folder should be: save says so, load finds nothing")
    func fileInPlaceOfFolder() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        try Data("not a folder".utf8).write(to: store.directory)

        let error = try #require(throws: ListStateError.self) { try store.save(StateSamples.infinite()) }

        #expect(error.code == .notWritable)
        #expect(error.message.contains(store.directory.path))
        // The flag is the CLI's to name (RecoveryAdviceTests); the library hands a recovery.
        #expect(error.recovery == .chooseAnotherCacheRoot)
        #expect(error.message.contains("move it or choose another cache folder"))
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .none)
        #expect(try Data(contentsOf: store.directory) == Data("not a folder".utf8))
    }

    @Test("a read-only State folder: save throws naming it, the saved state still loads")
    func readOnlyFolder() throws {
        // Given a saved state in a folder that then becomes read-only
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        let saved = StateSamples.infinite()
        try store.save(saved)
        guard let undo = ReadOnlyFolder.make(store.directory) else {
            try Test.cancel("this machine cannot make a folder read-only for this user")
        }
        defer { undo() }

        // When another state is saved
        let error = try #require(throws: ListStateError.self) { try store.save(StateSamples.infinite(anchorIndex: 1)) }

        // Then the error names the folder and what to do, and the old state is intact
        #expect(error.code == .notWritable)
        #expect(error.message.contains(store.directory.path))
        #expect(error.message.contains("not writable"))
        #expect(store.load(mode: .infinite, backendIdentity: StateSamples.backend) == .restored(saved))
        #expect(ScratchFolder.names(in: store.directory) == [".state.lock", "infinite-scroll-state.json"])
    }
}
