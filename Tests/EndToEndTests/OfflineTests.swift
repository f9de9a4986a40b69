import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed --offline")
struct OfflineTests {
    /// Runs `warm` against a fixture server, stops it, and runs `offline` against a fresh one
    /// on the same port (same URLs, so the same state identity and cache keys). The fresh
    /// server counts only what the offline runs send: requests the warm run left in flight
    /// (low-priority prefetches) can never show up in its counters.
    private func warmThenOffline(
        warm: (RunningFixtureServer) async throws -> Void,
        offline: (RunningFixtureServer) async throws -> Void
    ) async throws {
        let port = try await withFixtureServer { server in
            try await warm(server)
            return server.port
        }
        try await withFixtureServer(port: port) { server in
            try await offline(server)
        }
    }

    @Test("after a warm run, --offline lists from the caches without a single request")
    func listsFromTheCaches() async throws {
        let sandbox = try Sandbox()
        try await warmThenOffline { server in
            // Given: pages 1–2 and their images cached
            let warm = try await sandbox.run(["list", "--pages", "2"], against: server)
            try #require(warm.succeeded, "\(warm)")
        } offline: { server in
            // When: the same two pages again, offline
            let list = try await sandbox.run(["list", "--offline", "--restart", "--pages", "2"], against: server)

            // Then: posts 1–40 with their images, from the caches
            #expect(list.succeeded, "\(list)")
            let printed = PrintedList(list.standardOutput)
            #expect(printed.positions == Array(1...40), "\(list)")
            let imagelessInFirst40 = FixtureFacts.postsWithoutImage.filter { $0 <= 40 }.count
            #expect(printed.imageLines.count == 40 - imagelessInFirst40, "\(list)")
            let allFromDisk = printed.imageLines.allSatisfy { $0.contains(" at ") && !$0.contains("(network") }
            #expect(allFromDisk, "\(list)")

            // When: a numbered page of them, offline
            let page = try await sandbox.run(["page", "2", "--offline", "--json"], against: server)

            // Then
            #expect(page.succeeded, "\(page)")
            let output = try ListJSON.decode(page.standardOutput, from: "page 2 --offline --json")
            #expect(output.posts.map(\.post.id) == Array(21...40))
            let withoutImageFile = output.posts.filter { $0.image?.path == nil }.map(\.post.id)
            let onlyImagelessPosts = withoutImageFile.allSatisfy { FixtureFacts.postsWithoutImage.contains($0.integerValue ?? 0) }
            #expect(onlyImagelessPosts, "posts without an image file: \(withoutImageFile)")

            // Then: the server saw nothing
            #expect(server.totalRequestCount == 0, "requests by path: \(server.requestCountsByPath)")
        }
    }

    /// `r` under --offline said "refreshed from the network", went back to post 1 and cut
    /// the loaded list to what page 1 gave.
    @Test("browse --offline: r says there is nothing to refresh from, and the place stays")
    func offlineRefreshKeepsThePlace() async throws {
        let sandbox = try Sandbox()
        try await warmThenOffline { server in
            // Pages 1–2 cached; browse then opens at post 1 (the top of what list showed last).
            let warm = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            let back = try await sandbox.run(["list", "--restart", "--no-images"], against: server)
            try #require(warm.succeeded && back.succeeded, "\(warm)\n\(back)")
        } offline: { server in
            let run = try await sandbox.run(["browse", "--offline"], against: server, standardInput: Data("jjjrq".utf8))
            #expect(run.succeeded, "\(run)")
            #expect(run.standardOutput.contains("offline (--offline): nothing to refresh from"), "\(run.standardOutput)")
            #expect(!run.standardOutput.contains("refreshed from the network"), "\(run.standardOutput)")
            // Three posts down from where browse opened, as before r (a refresh went to 0).
            let anchor = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index
            #expect(anchor == 3, "\(run.standardOutput)")
            #expect(server.totalRequestCount == 0, "requests by path: \(server.requestCountsByPath)")
        }
    }

    @Test("an offline run past the cached pages fails naming what is not cached, and fetches no image")
    func pastTheCachedPages() async throws {
        let sandbox = try Sandbox()
        try await warmThenOffline { server in
            // Given: pages cached, images not
            // Pages 1–2 cached; browse then opens at post 1 (the top of what list showed last).
            let warm = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            let back = try await sandbox.run(["list", "--restart", "--no-images"], against: server)
            try #require(warm.succeeded && back.succeeded, "\(warm)\n\(back)")
        } offline: { server in
            // When: the cached pages again; online, their images would be prefetched
            let cached = try await sandbox.run(["list", "--offline", "--restart", "--pages", "2", "--no-images"], against: server)
            #expect(cached.succeeded, "\(cached)")
            #expect(PrintedList(cached.standardOutput).positions == Array(1...40), "\(cached)")
            let before = sandbox.snapshot()

            // When: a page no run has fetched
            let page = try await sandbox.run(["page", "9", "--offline"], against: server)

            // Then
            expectOneLineError(page, naming: ["page 9", "not cached"])

            // Then: State/ and the caches are untouched
            expectUnchanged(before: before, after: sandbox.snapshot())

            // When: listing on past the end of the cache (page 3 may be there: the warm run
            // prefetched it, unless it was cut off)
            let list = try await sandbox.run(["list", "--offline", "--pages", "12", "--no-images"], against: server)

            // Then: fails naming the missing page; whatever it loaded it printed, and the
            // saved place holds exactly what was printed, so the next run skips nothing
            expectOneLineError(list, naming: ["not cached"])
            let printed = PrintedList(list.standardOutput).positions
            #expect(printed.isEmpty || printed == Array(41...60), "\(list)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...(40 + printed.count)))
            #expect(server.totalRequestCount == 0, "requests by path: \(server.requestCountsByPath)")
        }
    }
}
