import Foundation
import PostFeed
import PostFeedServer
import Testing

@testable import postfeed

/// The detail view (`o`) laid out for the window: wrapped hard, scrolled, re-laid out on resize.
@Suite("browse detail view: wrapped to the window, scrolled")
struct BrowseDetailLayoutTests {
    @Test("a word wider than the window is broken, not cut; CJK without spaces too")
    func wrapsHard() {
        let url = "https://example.com/" + String(repeating: "a", count: 70)
        let cjk = String(repeating: "漢", count: 30)
        let page = BrowseDetailLayout.page(above: [], text: ["#1  title", url, cjk], note: nil, scroll: 0, rows: 20, columns: 30)
        let cut = page.lines.contains { $0.hasSuffix("…") }
        #expect(!cut, "\(page.lines)")
        #expect(page.lines.joined().contains(url), "\(page.lines)")
        #expect(page.lines.joined().contains(cjk), "\(page.lines)")
        let fits = page.lines.allSatisfy { DisplayWidth.of($0) <= 30 }
        #expect(fits, "\(page.lines)")
        #expect(page.lines.count == 20 && page.lines.last == "(any key to go back)")
    }

    @Test("a post taller than the window scrolls, and says there is more")
    func scrolls() {
        let text = (1...40).map { "line \($0)" }
        let top = BrowseDetailLayout.page(above: [], text: text, note: nil, scroll: 0, rows: 10, columns: 40)
        #expect(top.maxScroll == 31)
        #expect(top.lines.first == "line 1")
        #expect(top.lines.last?.hasPrefix("lines 1–9 of 40, more below") == true, "\(top.lines)")
        let end = BrowseDetailLayout.page(above: [], text: text, note: nil, scroll: 500, rows: 10, columns: 40)
        #expect(end.scroll == 31 && end.lines.first == "line 32" && end.lines[8] == "line 40")
        #expect(end.lines.last?.contains("end") == true, "\(end.lines)")
        // The image's rows are skipped whole.
        #expect(BrowseDetailLayout.scrolled(0, by: 1, maxScroll: 30, imageRows: 8) == 8)
        #expect(BrowseDetailLayout.scrolled(8, by: -1, maxScroll: 30, imageRows: 8) == 0)
        #expect(BrowseDetailLayout.scrolled(9, by: -1, maxScroll: 30, imageRows: 8) == 8)
        #expect(BrowseDetailLayout.scrolled(0, by: Int.max, maxScroll: 30, imageRows: 0) == 30)
    }
}

/// The detail view in a real terminal (tmux).
@Suite("postfeed browse: the detail view wraps, scrolls and re-lays out (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseDetailTerminalTests {
    static let longWord = "https://example.com/" + String(repeating: "x", count: 90) + "/END"

    /// Post 1 with a long word, CJK without spaces, and 40 numbered paragraphs.
    static func longPostFixtures() throws -> FixtureCopy {
        let fixtures = try FixtureCopy()
        let file = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let paragraphs = (1...40).map { "Paragraph \($0) of the long post." }
        posts[0]["body"] = ([longWord, String(repeating: "東京", count: 40)] + paragraphs).joined(separator: "\n")
        try JSONSerialization.data(withJSONObject: posts).write(to: file)
        return fixtures
    }

    private func start(_ pane: TmuxPane, sandbox: Sandbox, server: RunningFixtureServer, images: String) throws {
        let binary = try PostfeedProcess.executable().path
        try pane.type(
            "clear; NO_COLOR=1 \(binary) browse --images \(images) --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                + "; echo \"exit $?\" > browse.status",
            enter: true)
    }

    @Test("a long post: words broken not cut, more below, j and space scroll, a resize re-wraps, q goes back")
    func wrapsScrollsAndRelaysOut() async throws {
        let sandbox = try Sandbox()
        let fixtures = try Self.longPostFixtures()
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 60, rows: 20)
            try start(pane, sandbox: sandbox, server: server, images: "none")
            try await pane.requireScreen { $0.count > 2 && $0[2].hasPrefix("   1. ") }

            // When: o
            try pane.type("o")
            let top = try await pane.requireScreen { $0.first?.hasPrefix("#1  ") == true && $0.last?.contains("more below") == true }
            // Then: the long word broken over lines, nothing cut, the CJK line whole
            let cut = top.dropLast().contains { $0.hasSuffix("…") }
            #expect(!cut, "\(top.joined(separator: "\n"))")
            #expect(top.joined().contains(Self.longWord), "\(top.joined(separator: "\n"))")

            // When: j; Then: the title scrolled away
            try pane.type("j")
            let down = try await pane.requireScreen { $0.last?.hasPrefix("lines 2–") == true }
            #expect(down.first?.hasPrefix("#1  ") == false, "\(down.joined(separator: "\n"))")
            // When: space, space…; Then: further, to the end
            try pane.type("      ")
            let end = try await pane.requireScreen { $0.last?.contains(", end") == true }
            let showsLast = end.contains { $0.contains("Paragraph 40 of the long post.") }
            #expect(showsLast, "\(end.joined(separator: "\n"))")

            // When: the window widened; Then: re-wrapped (lines wider than 60 columns)
            try pane.resize(columns: 120, rows: 20)
            // The frame laid out for 120 columns: wider lines, and a footer counting lines
            // of the new width (a frame caught while the resize is being drawn may still
            // count the old ones).
            let narrowTotal = end.last.flatMap { $0.split(separator: " ").dropFirst(3).first }.map(String.init) ?? ""
            let wide = try await pane.requireScreen { screen in
                screen.dropLast().contains { $0.count > 60 } && screen.last?.contains(" of \(narrowTotal)") == false
            }
            let fewer = wide.last?.contains(" of \(narrowTotal)") == false
            #expect(fewer, "re-wrapped lines are fewer\n\(wide.joined(separator: "\n"))")

            // When: q; Then: back to the list, not quit
            try pane.type("q")
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts 1–") == true }
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status")
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }

    /// Non-blank rows above post 1's title.
    private static func imageRows(_ lines: [String]) -> Int? {
        lines.firstIndex { $0.hasPrefix("#1  ") }.map { lines[..<$0].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count }
    }

    @Test("the image is drawn again for the new size after a resize")
    func imageFollowsResize() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 40)
            try start(pane, sandbox: sandbox, server: server, images: "symbols")
            try await pane.requireScreen { $0.count > 2 && $0[2].hasPrefix("   1. ") }
            try pane.type("o")
            let tall = try await pane.requireScreen { (Self.imageRows($0) ?? 0) >= 12 }
            let tallRows = Self.imageRows(tall) ?? 0

            // When: the window halved; Then: the image at most half of 20 rows
            try pane.resize(columns: 100, rows: 20)
            let short = try await pane.requireScreen { lines in
                lines.count == 20 && (Self.imageRows(lines).map { $0 > 0 && $0 <= 10 } ?? false)
            }
            #expect((Self.imageRows(short) ?? 0) < tallRows, "\(short.joined(separator: "\n"))")
            try pane.type("q")
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status")
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }
}
