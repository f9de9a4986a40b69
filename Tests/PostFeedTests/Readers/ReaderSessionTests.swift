import Foundation
import PostFeed
import PostFeedServer
import Testing

/// Issue 31 item 1: one engine, many readers. Each reader's place is its own, kept in the
/// client's place store (files by default), across a restart of the client.
@Suite("Reader sessions: one place per reader over one client")
struct ReaderSessionTests {
    static func ids(_ page: FeedSession.Page) -> [PostID] { page.posts.map(\.id) }

    @Test("Two readers, interleaved, each continue their own place across a client restart (file store)")
    func readersAreIndependent() async throws {
        let root = FeedTestSupport.temporaryDirectory("readers")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            let alice = try ReaderID("alice")
            let bob = try ReaderID("bob")
            let (a1, b1, a2) = try await FeedClient.withFeedClient(configuration) { client in
                let a = client.session(for: alice)
                let b = client.session(for: bob)
                let a1 = try await a.next()
                let b1 = try await b.next()
                let a2 = try await a.next()
                return (a1, b1, a2)
            }
            #expect(a1.firstPosition == 0 && a1.posts.count == 10)
            #expect(b1.firstPosition == 0, "bob starts at the top: alice's place is not his")
            #expect(Self.ids(b1) == Self.ids(a1))
            #expect(a2.firstPosition == 10)
            // A new client on the same cache root: each reader continues right after what
            // they were shown.
            let (a3, b2, fresh) = try await FeedClient.withFeedClient(configuration) { client in
                let b2 = try await client.session(for: bob).next()
                let a3 = try await client.session(for: alice).next()
                let fresh = try await client.session(for: ReaderID("carol")).next()
                return (a3, b2, fresh)
            }
            #expect(a3.firstPosition == 20, "alice continues after post 20")
            #expect(b2.firstPosition == 10, "bob continues after post 10")
            #expect(Set(Self.ids(a3)).isDisjoint(with: Self.ids(a2)))
            #expect(fresh.firstPosition == 0)
            // Named readers' files are in their own folders; the CLI's (default) files untouched.
            let state = root.appendingPathComponent("State")
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("readers/alice/infinite-scroll-state.json").path))
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("readers/bob/infinite-scroll-state.json").path))
            #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("infinite-scroll-state.json").path))
        }
    }

    @Test("The default reader is the CLI's place: its files under State/, saved by the one-reader API, continued by a session")
    func defaultReaderKeepsTheFiles() async throws {
        try await FeedTestSupport.withClient { client, server, root in
            _ = try await client.resumeInfinite()
            _ = try await client.infinite.loadMore()
            client.markShown(throughPosition: 9)
            try await client.saveInfinite(anchorIndex: 0, shownPostIDs: await client.shownPostIDs(in: 0..<10))
            let page = try await client.session(for: .default).next()
            #expect(page.firstPosition == 10, "the session continues the place the CLI's API saved")
            let file = root.appendingPathComponent("State/infinite-scroll-state.json")
            let saved = try ListState(jsonData: Data(contentsOf: file))
            #expect(saved.shownLength == 20, "and saves it where the CLI reads it")
        }
    }

    @Test("Two sessions asking for one image: one transfer, then the shared memory cache")
    func sessionsShareTransfersAndMemory() async throws {
        var server = FixtureServerConfiguration()
        server.faults.latency = .milliseconds(300)
        try await FeedTestSupport.withClient(server: server) { client, server, _ in
            let a = client.session(for: try ReaderID("a"))
            let b = client.session(for: try ReaderID("b"))
            // Both readers' first page at once: one page transfer.
            async let pageA = a.next()
            async let pageB = b.next()
            let (first, second) = try await (pageA, pageB)
            #expect(Self.ids(first) == Self.ids(second))
            #expect(FeedTestSupport.listRequests(server) == 1, "one transfer for the page both sessions asked")
            let withImage = first.posts.first { $0.imageURL != nil }
            let post = try #require(withImage)
            let before = server.requestCount(pathPrefix: "/images/")
            async let imageA = a.image(forPostID: post.id)
            async let imageB = b.image(forPostID: post.id)
            let (one, two) = try await (imageA, imageB)
            #expect(one.data == two.data)
            #expect(server.requestCount(pathPrefix: "/images/") == before + 1, "one transfer for the image both sessions asked")
            let again = try await b.image(forPostID: post.id)
            #expect(again.source == .memory, "the sessions share the client's memory cache")
            #expect(server.requestCount(pathPrefix: "/images/") == before + 1)
        }
    }

    @Test("A hostile reader id is refused, or hashed into a name that stays inside State/readers/")
    func hostileReaderIDs() async throws {
        for bad in ["", "../x", "..", ".", "a/b", "/etc", ".hidden", "x\u{0}y", "a b", String(repeating: "a", count: 10_000)] {
            let refused: ReaderIDError?
            do {
                _ = try ReaderID(bad)
                refused = nil
            } catch {
                refused = error
            }
            #expect(refused != nil, "\(bad.prefix(20)) is refused")
        }
        _ = try ReaderID(String(repeating: "a", count: ReaderID.maximumLength))
        do {
            _ = try ReaderID("../x")
        } catch {
            #expect(error.message.contains("letters, digits") || error.message.contains("dot"))
        }
        let root = FeedTestSupport.temporaryDirectory("readers-hostile")
        defer { try? FileManager.default.removeItem(at: root) }
        let cacheRoot = root.appendingPathComponent("cache")
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: cacheRoot)
            try await FeedClient.withFeedClient(configuration) { client in
                for id in ["../x", "../../etc/passwd", String(repeating: "é/", count: 5_000), ""] {
                    let reader = ReaderID(hashing: id)
                    #expect(reader.rawValue.hasPrefix("h-") && reader.rawValue.count == 66)
                    let page = try await client.session(for: reader).next()
                    #expect(page.firstPosition == 0)
                }
            }
        }
        // Everything written is inside the cache root's State/readers/, one folder per reader.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["cache"])
        let readers = try FileManager.default.contentsOfDirectory(atPath: cacheRoot.appendingPathComponent("State/readers").path)
        let hashed = readers.filter { $0.hasPrefix("h-") }
        #expect(readers.count == 4 && hashed.count == 4)
    }

    @Test("Calls on one session at once take turns: two next() hand over two different pages")
    func oneSessionTakesTurns() async throws {
        var server = FixtureServerConfiguration()
        server.faults.latency = .milliseconds(100)
        try await FeedTestSupport.withClient(server: server) { client, _, _ in
            let session = client.session(for: try ReaderID("fay"))
            async let first = session.next()
            async let second = session.next()
            let pages = try await [first, second].sorted { $0.firstPosition < $1.firstPosition }
            #expect(pages.map(\.firstPosition) == [0, 10])
            #expect(await session.shownLength == 20)
            #expect(await session.seenPostIDs.count == 20)
        }
    }

    @Test("A link at State/readers is refused: nothing is written through it, the save says so")
    func linkedReadersFolderIsRefused() async throws {
        let root = FeedTestSupport.temporaryDirectory("readers-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let cacheRoot = root.appendingPathComponent("cache")
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: cacheRoot.appendingPathComponent("State"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: cacheRoot.appendingPathComponent("State/readers"), withDestinationURL: outside)
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: cacheRoot)
            try await FeedClient.withFeedClient(configuration) { client in
                let page = try await client.session(for: try ReaderID("gus")).next()
                #expect(page.posts.count == 10, "the posts are shown")
                #expect(page.saveError?.message.contains("symbolic link") == true)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }
}
