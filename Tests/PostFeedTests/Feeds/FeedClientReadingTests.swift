import Foundation
import Logging
import PostFeed
import PostFeedServer
import Synchronization
import Testing

/// The reading loop of `postfeed list` and the page navigation of `postfeed page` are
/// library calls a Swift service uses exactly as the CLI does.
@Suite("FeedClient reading")
struct FeedClientReadingTests {
    struct OutputFailed: Error {}

    @Test("readInfinite hands over each page and saves the place at its top after it")
    func readInfiniteSavesAfterEachPage() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, root in
            // When
            let resumed = try await client.resumeInfinite()
            let handed = Handed()
            let reading = await client.readInfinite(pages: 3, after: resumed, onPage: { range in await handed.add(range) })

            // Then: three pages handed over, the place at post #21
            #expect(await handed.ranges == [0..<10, 10..<20, 20..<30])
            #expect(reading.failure == nil && reading.end == 30 && reading.place == 20 && reading.savedEnd == 30)
            let state = try #require(Self.infiniteState(root, client))
            #expect(state.anchor?.index == 20 && state.loadedPostIDs.count == 30)
        }
    }

    @Test("a page that cannot be handed over is not the place: the save stays before it")
    func failedHandOver() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, root in
            let resumed = try await client.resumeInfinite()
            let reading = await client.readInfinite(pages: 3, after: resumed, onPage: { range in
                if range.lowerBound >= 10 { throw OutputFailed() }
            })
            #expect(reading.failure is OutputFailed)
            #expect(reading.place == 0 && reading.delivered == 10 && reading.savedEnd == 10)
            try await client.savePlace(after: reading)
            let state = try #require(Self.infiniteState(root, client))
            #expect(state.anchor?.index == 0, "the place moved past a page the reader never got")
        }
    }

    @Test("readPages: next and previous from the saved page, an error at the ends, count pages")
    func readPages() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, _ in
            var shown: [Int] = []
            try await client.readPages(.number(24), count: 3) { shown.append($0.page) }
            #expect(shown == [24, 25])
            await #expect(throws: RepositoryError.self) {
                try await client.readPages(.next) { _ in }
            }
            try await client.readPages(.previous) { shown.append($0.page) }
            #expect(shown.last == 24)
            try await client.readPages(.first) { page in
                #expect(page.firstPosition == 1 && page.posts.count == 10)
                shown.append(page.page)
            }
            await #expect(throws: RepositoryError.self) {
                try await client.readPages(.previous) { _ in }
            }
            #expect(shown.last == 1)
        }
    }

    @Test("readPages saves the page as the place after handing it over (off the first screen's path), also when onPage throws")
    func readPagesSavesAfterHandOver() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, root in
            var placeDuringHandOver: Int?
            try await client.readPages(.number(7)) { _ in
                placeDuringHandOver = Self.pagedState(root, client)?.currentPage ?? 0
            }
            #expect(placeDuringHandOver == 0, "the place was saved before the page was handed over")
            #expect(Self.pagedState(root, client)?.currentPage == 7)

            var failure: (any Error)?
            do { try await client.readPages(.number(9)) { _ in throw OutputFailed() } } catch { failure = error }
            #expect(failure is OutputFailed, "\(String(describing: failure))")
            #expect(Self.pagedState(root, client)?.currentPage == 9, "the page reached is the place even when its output failed")
        }
    }

    @Test("readPages: when the hand-over and the save after it both fail, the hand-over's error is thrown, the save's logged")
    func readPagesKeepsTheHandOverErrorWhenTheSaveFails() async throws {
        let records = FeedClientLoggingTests.RecordingHandler.Records()
        let logger = Logger(label: "app") { _ in FeedClientLoggingTests.RecordingHandler(records: records) }
        let root = FeedTestSupport.temporaryDirectory("reading-save")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            try await FeedClient.withFeedClient(configuration, logger: logger) { client in
                let stateFolder = ListStateStore(cacheRoot: root).directory
                var failure: (any Error)?
                do {
                    try await client.readPages(.number(3)) { _ in
                        // A file where the state folder goes: the save after this fails
                        // (whoever runs the test, root included).
                        try? FileManager.default.removeItem(at: stateFolder)
                        try Data("not a folder".utf8).write(to: stateFolder)
                        throw OutputFailed()
                    }
                } catch {
                    failure = error
                }
                #expect(failure is OutputFailed, "\(String(describing: failure))")
                let lines = records.lines.withLock { $0.map(\.message) }
                let logged = lines.filter { $0.contains("page 3") && $0.contains("cannot save list state") }
                #expect(logged.count == 1, "\(lines)")
            }
        }
    }

    static func pagedState(_ root: URL, _ client: FeedClient) -> ListState? {
        if case .restored(let state) = ListStateStore(cacheRoot: root).load(mode: .paged, backendIdentity: client.backend.identity) {
            return state
        }
        return nil
    }

    static func infiniteState(_ root: URL, _ client: FeedClient) -> ListState? {
        if case .restored(let state) = ListStateStore(cacheRoot: root).load(mode: .infinite, backendIdentity: client.backend.identity) {
            return state
        }
        return nil
    }

    actor Handed {
        var ranges: [Range<Int>] = []
        func add(_ range: Range<Int>) { ranges.append(range) }
    }
}
