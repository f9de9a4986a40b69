import Foundation
import PostFeed
import Testing

@Suite("Setting unusable state aside on the next save")
struct ListStateStoreDeferredTests {
    @Test("A corrupt file is reported, left in place, then kept aside by the next save")
    func corruptFileWaitsForTheSave() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-deferred-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = ListStateStore(cacheRoot: root)
        let file = store.fileURL(for: .paged)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data("{ not json".utf8)
        try garbage.write(to: file)

        // When loading with the set-aside deferred
        let result = store.load(mode: .paged, backendIdentity: "b", setAside: .onNextSave)

        // Then it is reported and nothing moved
        guard case .discarded(let reason, let movedTo) = result else {
            Issue.record("expected .discarded, got \(result)")
            return
        }
        #expect(movedTo == nil)
        #expect(reason.kind == .corrupt)
        #expect(try Data(contentsOf: file) == garbage)

        // When this run saves
        try store.save(ListState(mode: .paged, backendIdentity: "b", pageSize: 10, currentPage: 2))

        // Then the garbage is kept aside and the new state loads
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        let corruptCopy = names.first { $0.hasPrefix("pagination-state.json.corrupt-") }
        let aside = try #require(corruptCopy, "\(names)")
        #expect(try Data(contentsOf: file.deletingLastPathComponent().appendingPathComponent(aside)) == garbage)
        guard case .restored(let state) = store.load(mode: .paged, backendIdentity: "b") else {
            Issue.record("the saved state did not load")
            return
        }
        #expect(state.currentPage == 2)
    }

    @Test("Saving over this backend's own state does not set anything aside")
    func ownStateIsReplaced() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-deferred-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = ListStateStore(cacheRoot: root)
        try store.save(ListState(mode: .paged, backendIdentity: "b", pageSize: 10, currentPage: 1))
        try store.save(ListState(mode: .paged, backendIdentity: "b", pageSize: 10, currentPage: 3))
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        let setAnythingAside = names.contains { $0.contains(".corrupt-") }
        #expect(!setAnythingAside, "\(names)")
    }
}
