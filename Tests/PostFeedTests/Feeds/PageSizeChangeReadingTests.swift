import Foundation
import PostFeed
import PostFeedServer
import Testing

/// `postfeed list` with another `--page-size` than the run before: the list is rebuilt in
/// pages of the new size, and the posts its last page holds past what the reader was
/// shown are handed over next, never skipped (README: list "never skips unread posts").
@Suite("Reading on after a page-size change")
struct PageSizeChangeReadingTests {
    /// What one `list` run handed over, and the state it left.
    struct Run {
        var handed: [PostID]
        var reading: InfiniteReading
        var state: ListState?
    }

    actor Collected {
        var ids: [PostID] = []
        func add(_ more: [PostID]) { ids += more }
    }

    /// One `postfeed list --page-size size --pages pages` run, as the command does it.
    static func list(
        _ server: RunningFixtureServer, root: URL, pageSize: Int, pages: Int = 1
    ) async throws -> Run {
        let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: pageSize) {
            $0.infinite.imagePrefetchCount = 0
        }
        return try await FeedClient.withFeedClient(configuration) { client in
            let resumed = try await client.resumeInfinite()
            let collected = Collected()
            let reading = await client.readInfinite(pages: pages, after: resumed, onPage: { range in
                await collected.add(try await client.infinite.posts(in: range).map(\.id))
            })
            try await client.savePlace(after: reading)
            return Run(handed: await collected.ids, reading: reading, state: FeedClientReadingTests.infiniteState(root, client))
        }
    }

    /// Runs `list` at each (page size, pages) in turn on one cache root; the runs.
    static func runs(_ steps: [(pageSize: Int, pages: Int)]) async throws -> [Run] {
        let root = FeedTestSupport.temporaryDirectory("page-size-change")
        defer { try? FileManager.default.removeItem(at: root) }
        return try await RunningFixtureServer.withRunning { server in
            var runs: [Run] = []
            for step in steps {
                runs.append(try await list(server, root: root, pageSize: step.pageSize, pages: step.pages))
            }
            return runs
        }
    }

    @Test("10 → 25 after posts 1–30: the next run hands over 31–75, none skipped; only posts handed over are seen")
    func tenToTwentyFive() async throws {
        let runs = try await Self.runs([(10, 3), (25, 1)])
        #expect(runs[0].handed == Array(1...30))
        #expect(runs[1].handed == Array(31...75), "posts 31–50 were skipped")
        #expect(runs[1].reading.start == 30 && runs[1].reading.delivered == 75)
        let state = try #require(runs[1].state)
        #expect(state.anchor?.postID == 51, "the place is the top of the page loaded")
        let seen = (1...80).filter { state.seenPostIDs.contains(PostID($0)) }
        #expect(seen == Array(1...75))
    }

    @Test("7 → 10 after posts 1–7: the next run hands over 8–20")
    func sevenToTen() async throws {
        let runs = try await Self.runs([(7, 1), (10, 1)])
        #expect(runs[0].handed == Array(1...7))
        #expect(runs[1].handed == Array(8...20), "posts 8–10 were skipped")
    }

    @Test("25 → 10 after posts 1–25: the next run hands over 26–40")
    func twentyFiveToTen() async throws {
        let runs = try await Self.runs([(25, 1), (10, 1)])
        #expect(runs[1].handed == Array(26...40), "posts 26–30 were skipped")
    }

    @Test("10 → 25 near the end: the posts left in the rebuilt last page are handed over though no page follows")
    func carriedPostsAtTheEnd() async throws {
        // 247 posts: 24 pages of 10 are posts 1–240; page 10 of 25 holds 226–247, the last.
        let runs = try await Self.runs([(10, 24), (25, 1)])
        #expect(runs[0].handed.count == 240)
        #expect(runs[1].handed == Array(241...247), "posts 241–247 were skipped")
        #expect(runs[1].reading.hasMore == false)
    }

    @Test("paged page 4 of 10, then mode infinite and list at 25: the list continues after post 40")
    func pagedToInfiniteWithAnotherPageSize() async throws {
        let root = FeedTestSupport.temporaryDirectory("page-size-change")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let ten = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 10)
            try await FeedClient.withFeedClient(ten) { client in
                try await client.readPages(.number(4)) { #expect($0.posts.map(\.id) == Array(31...40)) }
            }
            let twentyFive = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 25)
            let switched = try await FeedClient.withFeedClient(twentyFive) { client in try client.switchMode(to: .infinite) }
            #expect(switched.anchor?.postID == 31)
            let run = try await Self.list(server, root: root, pageSize: 25)
            #expect(run.handed == Array(41...75), "posts 41–50 were skipped")
        }
    }

    @Test("unchanged page size: nothing is carried, the next run starts after the loaded posts")
    func unchangedPageSize() async throws {
        let runs = try await Self.runs([(10, 2), (10, 1)])
        #expect(runs[1].handed == Array(21...30))
        #expect(runs[1].reading.start == 20)
    }
}
