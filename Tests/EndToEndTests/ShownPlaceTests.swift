import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// The place is what the reader was **shown** (issue 30, item 2): a page loaded ahead, the
/// background catalog walk or a page rebuilt for a new page size moves no place and marks
/// nothing seen; the next `list` continues right after the last post shown.
@Suite("the place is what was shown", .serialized)
struct ShownPlaceTests {
    /// The last post number a browse header names (`posts 2–13 of 247 loaded` → 13).
    private static func lastShown(_ header: String?) -> Int? {
        guard let header, let range = header.range(of: "posts ") else { return nil }
        let numbers = header[range.upperBound...].prefix { $0.isNumber || $0 == "–" }
        return numbers.split(separator: "–").last.flatMap { Int($0) }
    }

    /// The count on a catalog status line (`catalog: 321 posts loaded…`), if it shows one.
    private static func catalogCount(_ lines: [String]) -> Int? {
        guard let status = lines.last, let range = status.range(of: "catalog: ") else { return nil }
        let rest = status[range.upperBound...].drop { !$0.isNumber }
        return Int(rest.prefix { $0.isNumber })
    }

    @Test(
        "list --pages 2, browse with one j while the catalog walk loads everything, q: list continues after post 40",
        .enabled(if: TmuxPane.isAvailable, "needs tmux"))
    func catalogWalkMovesNoPlace() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: 40 posts shown by list
            let list = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")

            // When: browse, one j (the catalog walk starts and loads all 247), q
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite") == true && $0.count > 2 }
            try pane.type("j")
            try await pane.requireScreen { $0.last?.contains("catalog: all 247 posts loaded") == true }
            try await pane.quitBrowse()

            // Then: the next list starts at post 41, not "End of the feed"
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).positions == Array(41...60), "\(next)")
            #expect(!next.standardOutput.contains("End of the feed"), "\(next)")
        }
    }

    @Test("list --pages 3, printf q | browse --page-size 7, list --page-size 7: the list starts at post 61")
    func pageRebuiltForANewSizeIsNotRead() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: 60 posts shown in pages of 20
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")

            // When: browse in pages of 7 rebuilds the list (63 posts) and quits at once
            let browse = try await sandbox.run(
                ["browse", "--page-size", "7", "--images", "none"], against: server, standardInput: Data("q".utf8))
            try #require(browse.succeeded, "\(browse)")

            // Then
            let next = try await sandbox.run(["list", "--page-size", "7", "--no-images"], against: server)
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).positions.first == 61, "\(next)")
        }
    }

    /// json-server pages of posts that never end: every page is full, no total, no links.
    private static func endless(_ target: String) -> (status: Int, contentType: String?, headers: [(String, String)], body: Data) {
        let items = URLComponents(string: target)?.queryItems ?? []
        let page = items.first { $0.name == "_page" }.flatMap { $0.value }.flatMap { Int($0) } ?? 1
        let limit = items.first { $0.name == "_limit" }.flatMap { $0.value }.flatMap { Int($0) } ?? 20
        let first = (page - 1) * limit + 1
        let posts = (first..<(first + limit)).map {
            #"{"id":\#($0),"title":"Post \#($0)","body":"Body of post \#($0)","popularity":\#(Double($0 % 97) / 97)}"#
        }
        return (200, "application/json", [], Data("[\(posts.joined(separator: ","))]".utf8))
    }

    /// The issue's case idles 35 s, while the walk loads tens of thousands of posts; the
    /// mechanism is the same walk, so this waits until it has loaded at least 300 posts
    /// (15 pages past what was shown) instead of for a fixed time.
    @Test(
        "a feed that never ends: browse, one j, the catalog walk runs on, q: the next list starts after the last post shown",
        .enabled(if: TmuxPane.isAvailable, "needs tmux"))
    func endlessFeedDoesNotJump() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(answering: Self.endless) { server in
            let backend = ["--base-url", server.baseURL, "--api", "json-server"]
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            let binary = try PostfeedProcess.executable().path
            try pane.type(
                "clear; NO_COLOR=1 \(binary) browse --images none \(backend.joined(separator: " ")) --cache-dir \(sandbox.cacheRoot.path)"
                    + "; echo \"exit $?\" > browse.status",
                enter: true)
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite") == true && Self.lastShown($0.first) != nil }

            // When: one j, then idle while the walk loads on
            try pane.type("j")
            let moved = try await pane.requireScreen { Self.lastShown($0.first).map { $0 > 1 } == true && $0.first?.contains("posts 2–") == true }
            let lastShown = try #require(Self.lastShown(moved.first))
            try await pane.requireScreen(timeout: .seconds(60)) { (Self.catalogCount($0) ?? 0) >= 300 }
            try await pane.quitBrowse()

            // Then: list continues right after the last post browse drew
            let next = try await sandbox.run(["list", "--no-images"] + backend)
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).positions.first == lastShown + 1, "browse drew up to #\(lastShown): \(next)")
        }
    }

    @Test("list --sort popularity, then list --unseen: the posts printed by popularity are seen, none is printed again")
    func popularityPrintsCountAsSeen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: the 20 most popular posts printed
            let popular = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)
            try #require(popular.succeeded, "\(popular)")
            let printed = Set(PrintedList(popular.standardOutput).ids)
            try #require(printed.count == 20, "\(popular)")

            // When
            let unseen = try await sandbox.run(["list", "--unseen", "--no-images"], against: server)

            // Then: page 1 without the popular posts it holds (--unseen hides within pages)
            #expect(unseen.succeeded, "\(unseen)")
            let again = PrintedList(unseen.standardOutput).ids
            #expect(!again.isEmpty, "\(unseen)")
            #expect(printed.isDisjoint(with: again), "printed again: \(printed.intersection(again).sorted { $0.description < $1.description })")
        }
    }
}
