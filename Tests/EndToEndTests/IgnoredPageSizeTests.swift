import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Issue 15, case 3: a server that ignores the page size. A page longer than asked is cut
/// to the page size and said so, never renumbered into the next pages' numbers; a page
/// body larger than one page may hold fails while streaming, naming the page, the URL and
/// the limit.
@Suite("A server that ignores the page size")
struct IgnoredPageSizeTests {
    /// Runs `body` with a fixture server that answers every page with the same posts: the
    /// whole list (247 posts), or `servedPostCount` of them.
    static func withServer<T>(
        servedPostCount: Int? = nil, _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        var configuration = FixtureServerConfiguration()
        configuration.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: servedPostCount)
        return try await RunningFixtureServer.withRunning(configuration, body)
    }

    @Test("page 2 --page-size 10 never shows posts 1–10 again as #11–20; it says the server ignores the page size")
    func pageTwo() async throws {
        let sandbox = try Sandbox()
        try await Self.withServer { server in
            // Given: page 1 shows the first 10 posts, and says why only those
            let first = try await sandbox.run(["page", "1", "--page-size", "10", "--no-images"], against: server)
            #expect(first.succeeded, "\(first)")
            #expect(PrintedList(first.standardOutput).ids == Array(1...10), "\(first)")
            #expect(PrintedList(first.standardOutput).positions == Array(1...10), "\(first)")
            #expect(first.standardError.contains("ignores the page size"), "\(first)")
            let before = sandbox.stateSnapshot()

            // When
            let second = try await sandbox.run(["page", "2", "--page-size", "10", "--no-images"], against: server)

            // Then: no post printed under another post's number, a clear error, no state change
            let printed = PrintedList(second.standardOutput)
            let repeatsPage1 = printed.ids.contains { (1...10).contains($0.integerValue ?? 0) }
            #expect(!repeatsPage1, "renumbered duplicates: \(second)")
            #expect(second.failed, "\(second)")
            #expect(second.errorMessage?.contains("page 2") == true, "\(second)")
            #expect(second.errorMessage?.contains("ignores the page size") == true, "\(second)")
            #expect(second.errorLines.count <= 3, "one line each, not a dump: \(second)")
            #expect(sandbox.stateSnapshot() == before, "a failed page changes no state")
        }
    }

    @Test("list --pages 3 --page-size 10: the first 10 posts once, then the walk ends with a warning, exit 0")
    func listThreePages() async throws {
        let sandbox = try Sandbox()
        try await Self.withServer { server in
            // When
            let run = try await sandbox.run(["list", "--pages", "3", "--page-size", "10", "--no-images"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            let printed = PrintedList(run.standardOutput)
            #expect(printed.ids == Array(1...10), "\(run)")
            #expect(printed.positions == Array(1...10), "\(run)")
            #expect(Set(printed.ids).count == printed.ids.count, "no post printed twice: \(run)")
            let warnings = run.errorLines.filter { $0.contains("warning") }
            let warnsPageSize = warnings.contains { $0.contains("ignores the page size") }
            #expect(warnsPageSize, "\(run)")
            let warnsListEnds = warnings.contains { $0.contains("the list ends here") }
            #expect(warnsListEnds, "\(run)")
            #expect(server.requestCount(path: "/api/posts") <= 3, "\(server.requestCount(path: "/api/posts")) list requests")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...10))
        }
    }

    @Test("a walk ended for making no progress is saved as ended: the next list asks nothing and says so")
    func stalledWalkIsSavedAsEnded() async throws {
        let sandbox = try Sandbox()
        try await Self.withServer { server in
            let first = try await sandbox.run(["list", "--pages", "3", "--page-size", "10", "--no-images"], against: server)
            #expect(first.succeeded, "\(first)")
            let requests = server.requestCount(path: "/api/posts")

            // When: the next run
            let next = try await sandbox.run(["list", "--page-size", "10", "--no-images"], against: server)

            // Then: nothing new asked for, no second warning; the end of the feed said
            #expect(next.succeeded, "\(next)")
            #expect(server.requestCount(path: "/api/posts") == requests, "the ended walk was walked again: \(next)")
            #expect(!next.standardError.contains("the list ends here"), "\(next)")
        }
    }

    @Test(
        "a page body over the 8 MiB bound fails while streaming: exit 1, the page, the URL and the limit named, no state change"
    )
    func pageBodyBound() async throws {
        let sandbox = try Sandbox()
        // 15,000 posts of about 700 bytes: a page body of about 10 MB.
        try await Self.withServer(servedPostCount: 15_000) { server in
            // Given: a place saved by an earlier run
            let earlier = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: 0)) { honest in
                try await sandbox.run(["page", "2", "--page-size", "10", "--no-images"], against: honest)
            }
            #expect(earlier.succeeded, "\(earlier)")
            let before = sandbox.stateSnapshot()

            // When
            let run = try await sandbox.run(["page", "1", "--page-size", "10", "--no-images"], against: server)

            // Then
            #expect(run.failed && run.status == 1, "\(run)")
            let message = try #require(run.errorMessage, "\(run)")
            #expect(message.contains("page 1"), "\(message)")
            #expect(message.contains(server.baseURL.absoluteString + "/api/posts"), "\(message)")
            #expect(message.contains("8 MiB"), "\(message)")
            #expect(PrintedList(run.standardOutput).entries.isEmpty, "\(run)")
            #expect(sandbox.stateSnapshot() == before, "a failed page changes no state")
        }
    }

    @Test("a backend file's maximumPageBytes lowers the bound: the whole list (about 170 KB) is over 64 KiB")
    func pageBodyBoundFromBackendFile() async throws {
        let sandbox = try Sandbox()
        try await Self.withServer { server in
            // Given
            let file = sandbox.directory.appendingPathComponent("backend.json")
            try Data(
                #"{"preset": "postfeed", "baseURL": "\#(server.baseURL.absoluteString)", "maximumPageBytes": 65536}"#.utf8
            ).write(to: file)

            // When
            let run = try await sandbox.run(["list", "--page-size", "10", "--no-images", "--backend", file.path])

            // Then
            #expect(run.failed && run.status == 1, "\(run)")
            #expect(run.errorMessage?.contains("64 KiB") == true, "\(run)")
            #expect(run.errorMessage?.contains("maximumPageBytes") == true, "\(run)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.infiniteStateFile.path), "\(run)")
        }
    }

    @Test("a backend file's maximumPageBytes that is no size is refused, naming the file and the key")
    func badMaximumPageBytes() async throws {
        let sandbox = try Sandbox()
        let file = sandbox.directory.appendingPathComponent("backend.json")
        try Data(#"{"preset": "postfeed", "baseURL": "http://127.0.0.1:9", "maximumPageBytes": 0}"#.utf8).write(to: file)
        let run = try await sandbox.run(["list", "--backend", file.path])
        #expect(run.failed, "\(run)")
        #expect(run.standardError.contains(file.path) && run.standardError.contains("maximumPageBytes"), "\(run)")
    }
}
