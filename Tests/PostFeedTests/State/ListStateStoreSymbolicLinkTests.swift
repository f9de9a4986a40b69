import Foundation
import PostFeed
import PostFeedCache
import Testing

/// Issue 29, item 1, for `State/`: a symbolic link at the State folder, a state file, the
/// state lock, a set-aside name or a temporary name is never followed. Saves and resets
/// refuse it with one line naming it ("… is a symbolic link; refused"), loads start fresh
/// saying so, and nothing outside the cache root is read, written, created or removed.
@Suite("List state store and symbolic links")
struct ListStateStoreSymbolicLinkTests {
    static let mode = ListMode.infinite
    static let state = StateSamples.infinite()

    /// Outside: a valid state file under the mode's name, so a followed State link would
    /// restore it (and a reset would delete it).
    static func fixture() throws -> StateLinkFixture {
        try StateLinkFixture(outsideFiles: [mode.stateFileName: try state.jsonData()])
    }

    static func saveFailure(_ store: ListStateStore) -> String {
        do {
            try store.save(state)
            return "no error"
        } catch {
            return error.message
        }
    }

    static func resetFailure(_ store: ListStateStore) -> String {
        do {
            try store.reset(mode: mode)
            return "no error"
        } catch {
            return error.message
        }
    }

    @Test("a linked State folder: save and reset refuse it, load starts fresh saying so", arguments: StateLinkKind.allCases)
    func stateFolder(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        try fixture.plantLink(kind, at: fixture.stateFolder)

        expectStateRefusal(Self.saveFailure(store), naming: fixture.stateFolder)
        fixture.expectOutsideUntouched("save")
        let loaded = store.load(mode: Self.mode, backendIdentity: StateSamples.backend)
        var restored = false
        if case .restored = loaded { restored = true }
        #expect(!restored, "\(loaded)")
        if case .discarded(let reason, let movedTo) = loaded {
            expectStateRefusal(reason.message, naming: fixture.stateFolder)
            #expect(movedTo == nil)
        }
        fixture.expectOutsideUntouched("load")
        expectStateRefusal(Self.resetFailure(store), naming: fixture.stateFolder)
        fixture.expectOutsideUntouched("reset")
        #expect(StateLinkFixture.isLink(fixture.stateFolder))
    }

    @Test("a linked state file: save and reset refuse it, load starts fresh saying so, nothing is moved",
          arguments: StateLinkKind.allCases)
    func stateFile(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        let file = store.fileURL(for: Self.mode)
        try fixture.plantLink(kind, at: file)

        let loaded = store.load(mode: Self.mode, backendIdentity: StateSamples.backend)
        guard case .discarded(let reason, let movedTo) = loaded else {
            Issue.record("expected a discard, got \(loaded)")
            return
        }
        expectStateRefusal(reason.message, naming: file)
        #expect(movedTo == nil)
        fixture.expectOutsideUntouched("load")
        expectStateRefusal(Self.saveFailure(store), naming: file)
        fixture.expectOutsideUntouched("save")
        expectStateRefusal(Self.resetFailure(store), naming: file)
        fixture.expectOutsideUntouched("reset")
        #expect(StateLinkFixture.isLink(file))
        let names = ScratchFolder.names(in: fixture.stateFolder)
        let noneSetAside = names.allSatisfy { !$0.contains(".corrupt-") }
        #expect(noneSetAside, "\(names)")
    }

    @Test("a linked state lock: save and reset refuse it; nothing is created through it", arguments: StateLinkKind.allCases)
    func stateLock(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        let lock = fixture.stateFolder.appendingPathComponent(".state.lock")
        try fixture.plantLink(kind, at: lock)

        expectStateRefusal(Self.saveFailure(store), naming: lock)
        fixture.expectOutsideUntouched("save")
        _ = store.load(mode: Self.mode, backendIdentity: StateSamples.backend)
        fixture.expectOutsideUntouched("load")
        expectStateRefusal(Self.resetFailure(store), naming: lock)
        fixture.expectOutsideUntouched("reset")
        #expect(StateLinkFixture.isLink(lock))
    }

    @Test("a link at the set-aside name is never followed nor replaced: the file goes to the next name",
          arguments: StateLinkKind.allCases)
    func setAsideName(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        let file = store.fileURL(for: Self.mode)
        try FileManager.default.createDirectory(at: fixture.stateFolder, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: file)
        let taken = fixture.stateFolder.appendingPathComponent("\(Self.mode.stateFileName).corrupt-20250501T100000Z")
        try fixture.plantLink(kind, at: taken)

        let loaded = store.load(mode: Self.mode, backendIdentity: StateSamples.backend)
        guard case .discarded(_, let movedTo?) = loaded else {
            Issue.record("expected a move aside, got \(loaded)")
            return
        }
        #expect(movedTo.lastPathComponent == "\(Self.mode.stateFileName).corrupt-20250501T100000Z-2")
        #expect(try Data(contentsOf: movedTo) == Data("{ not json".utf8))
        #expect(StateLinkFixture.isLink(taken))
        fixture.expectOutsideUntouched("move aside")
    }

    @Test("a deferred set-aside at save time does not follow a linked set-aside name", arguments: StateLinkKind.allCases)
    func deferredSetAsideName(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        let file = store.fileURL(for: Self.mode)
        try FileManager.default.createDirectory(at: fixture.stateFolder, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: file)
        let taken = fixture.stateFolder.appendingPathComponent("\(Self.mode.stateFileName).corrupt-20250501T100000Z")
        try fixture.plantLink(kind, at: taken)

        _ = store.load(mode: Self.mode, backendIdentity: StateSamples.backend, setAside: .onNextSave)
        try store.save(Self.state)
        #expect(StateLinkFixture.isLink(taken))
        let second = fixture.stateFolder.appendingPathComponent("\(Self.mode.stateFileName).corrupt-20250501T100000Z-2")
        #expect(try Data(contentsOf: second) == Data("{ not json".utf8))
        fixture.expectOutsideUntouched("save")
    }

    @Test("links with temporary names are removed as links by a save's sweep, never followed", arguments: StateLinkKind.allCases)
    func temporaryNames(kind: StateLinkKind) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let store = ListStateStore(cacheRoot: fixture.root, now: StateSamples.clock)
        let orphan = fixture.stateFolder.appendingPathComponent(".\(Self.mode.stateFileName).tmp-1-abcdef")
        try fixture.plantLink(kind, at: orphan)

        try store.save(Self.state)
        #expect(store.load(mode: Self.mode, backendIdentity: StateSamples.backend) == .restored(Self.state))
        fixture.expectOutsideUntouched("save")
        try store.reset(mode: Self.mode)
        fixture.expectOutsideUntouched("reset")
    }
}

/// Issue 29, item 3: files set aside within one second never overwrite each other.
@Suite("Setting State files aside")
struct StateSetAsideTests {
    @Test("two damaged files set aside within one second keep both, under -2")
    func twoInOneSecond() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url, now: StateSamples.clock)
        let name = "popularity-order-state.json"
        try store.write(Data("first".utf8), toFileNamed: name)
        let first = try store.setAside(fileNamed: name)
        try store.write(Data("second".utf8), toFileNamed: name)
        let second = try store.setAside(fileNamed: name)

        #expect(first.lastPathComponent == "\(name).corrupt-20250501T100000Z")
        #expect(second.lastPathComponent == "\(name).corrupt-20250501T100000Z-2")
        #expect(try Data(contentsOf: first) == Data("first".utf8))
        #expect(try Data(contentsOf: second) == Data("second".utf8))
        #expect(try store.contents(ofFileNamed: name, maximumBytes: 100) == nil)
    }
}
