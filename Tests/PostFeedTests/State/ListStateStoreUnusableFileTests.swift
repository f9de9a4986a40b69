import Foundation
import PostFeed
import Testing

@Suite("List state store: files that cannot be used")
struct ListStateStoreUnusableFileTests {
    struct BadFile: Sendable, CustomTestStringConvertible {
        let name: String
        let mode: ListMode
        let kind: ListStateStore.DiscardReason.Kind
        /// Words the one-line reason must contain.
        let says: String
        let bytes: @Sendable () throws -> Data
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "not JSON", mode: .paged, kind: .corrupt, says: "is not JSON (damaged or cut short)") { Data("{not json".utf8) },
        BadFile(name: "truncated", mode: .infinite, kind: .corrupt, says: "is not JSON (damaged or cut short)") {
            let data = try StateSamples.infinite().jsonData()
            return data.prefix(data.count - 40)
        },
        BadFile(name: "empty", mode: .infinite, kind: .corrupt, says: "is empty") { Data() },
        BadFile(name: "binary", mode: .paged, kind: .corrupt, says: "is not JSON") { Data([0xFF, 0x00, 0xFE, 0x7B]) },
        BadFile(name: "JSON but not state", mode: .paged, kind: .corrupt, says: "has no version") { Data(#"{"hello":"world"}"#.utf8) },
        BadFile(name: "a JSON array", mode: .paged, kind: .corrupt, says: "is not list state (expected") { Data("[1,2,3]".utf8) },
        BadFile(name: "a bad value", mode: .infinite, kind: .corrupt, says: "pageSize 0 is not a positive page size") {
            var state = StateSamples.infinite()
            state.pageSize = 0
            return try state.jsonData()
        },
        BadFile(name: "newer version", mode: .paged, kind: .newerVersion, says: "was saved by a newer PostFeed (state version \(ListState.currentVersion + 1)") {
            var state = StateSamples.paged()
            state.version = ListState.currentVersion + 1
            return try state.jsonData()
        },
        BadFile(
            name: "other backend", mode: .paged, kind: .otherBackend,
            says: "was saved for backend \(StateSamples.otherBackend), not \(StateSamples.backend)"
        ) {
            var state = StateSamples.paged()
            state.backendIdentity = StateSamples.otherBackend
            return try state.jsonData()
        },
        BadFile(name: "other mode", mode: .infinite, kind: .otherMode, says: "holds paged state, not infinite") {
            try StateSamples.paged().jsonData()
        },
    ]

    @Test("an unusable file is moved aside with its bytes, the reason said, and a fresh start", arguments: badFiles)
    func unusableFile(_ bad: BadFile) throws {
        // Given a state file holding bad bytes
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url, now: StateSamples.clock)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let file = store.fileURL(for: bad.mode)
        let bytes = try bad.bytes()
        try bytes.write(to: file)

        // When it is loaded
        let result = store.load(mode: bad.mode, backendIdentity: StateSamples.backend)

        // Then it is discarded for the right reason, named in one line
        guard case .discarded(let reason, let movedTo) = result else {
            Issue.record("expected a discard, got \(result)")
            return
        }
        let aside = try #require(movedTo)
        #expect(reason.kind == bad.kind)
        #expect(reason.file == file)
        #expect(reason.message.contains(file.path))
        #expect(reason.message.contains(bad.says), "\(reason.message)")
        #expect(reason.message.contains("moved aside to \(aside.path); starting fresh"))
        #expect(!reason.message.contains("\n"))
        // And the original bytes are kept beside it, never deleted
        #expect(aside.lastPathComponent == "\(bad.mode.stateFileName).corrupt-20250501T100000Z")
        #expect(aside.deletingLastPathComponent().standardizedFileURL == store.directory.standardizedFileURL)
        #expect(try Data(contentsOf: aside) == bytes)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // And the next run starts fresh and can save again
        #expect(store.load(mode: bad.mode, backendIdentity: StateSamples.backend) == .none)
        let fresh = bad.mode == .infinite ? StateSamples.infinite() : StateSamples.paged()
        try store.save(fresh)
        #expect(store.load(mode: bad.mode, backendIdentity: StateSamples.backend) == .restored(fresh))
        #expect(try Data(contentsOf: aside) == bytes)
    }

    @Test("two discards in the same second keep both files")
    func discardsDoNotCollide() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url, now: StateSamples.clock)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let file = store.fileURL(for: .infinite)

        try Data("first".utf8).write(to: file)
        _ = store.load(mode: .infinite, backendIdentity: StateSamples.backend)
        try Data("second".utf8).write(to: file)
        let second = store.load(mode: .infinite, backendIdentity: StateSamples.backend)

        guard case .discarded(_, let movedTo?) = second else {
            Issue.record("expected a discard, got \(second)")
            return
        }
        #expect(movedTo.lastPathComponent == "infinite-scroll-state.json.corrupt-20250501T100000Z-2")
        let first = store.directory.appendingPathComponent("infinite-scroll-state.json.corrupt-20250501T100000Z")
        #expect(try Data(contentsOf: first) == Data("first".utf8))
        #expect(try Data(contentsOf: movedTo) == Data("second".utf8))
    }

    @Test("a folder where the state file should be is moved aside, not a crash")
    func folderInPlaceOfFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url, now: StateSamples.clock)
        try FileManager.default.createDirectory(at: store.fileURL(for: .paged), withIntermediateDirectories: true)

        let result = store.load(mode: .paged, backendIdentity: StateSamples.backend)

        guard case .discarded(let reason, let movedTo?) = result else {
            Issue.record("expected a discard, got \(result)")
            return
        }
        #expect(reason.kind == .unreadable)
        #expect(reason.message.contains("could not be read"))
        #expect(FileManager.default.fileExists(atPath: movedTo.path))
        try store.save(StateSamples.paged())
        #expect(store.load(mode: .paged, backendIdentity: StateSamples.backend) == .restored(StateSamples.paged()))
    }

    @Test("a bad file in a read-only folder is ignored and left in place")
    func readOnlyFolderWithBadFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ListStateStore(cacheRoot: folder.url)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let file = store.fileURL(for: .paged)
        try Data("{broken".utf8).write(to: file)
        guard let undo = ReadOnlyFolder.make(store.directory) else {
            try Test.cancel("this machine cannot make a folder read-only for this user")
        }
        defer { undo() }

        let result = store.load(mode: .paged, backendIdentity: StateSamples.backend)

        guard case .discarded(let reason, nil) = result else {
            Issue.record("expected a discard left in place, got \(result)")
            return
        }
        #expect(reason.kind == .corrupt)
        #expect(reason.message.contains("could not move it aside"))
        #expect(reason.message.contains("starting fresh"))
        #expect(try Data(contentsOf: file) == Data("{broken".utf8))
    }
}
