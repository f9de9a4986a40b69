import Foundation
import PostFeedServer
import Testing

/// `browse` in a real terminal (tmux) at sizes down to 1×1 (issue 16).
@Suite("postfeed browse at any window size (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseSmallWindowTests {
    /// Whether a line is post `number`'s first line ("   1. title").
    private static func isPost(_ number: Int, _ line: String) -> Bool {
        line.hasPrefix(String(repeating: " ", count: max(0, 4 - String(number).count)) + "\(number). ")
    }

    private static func text(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    @Test("60×5 and 60×6: compact, a post row under the header, and the header claims the posts drawn")
    func compactWindowShowsPosts() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 24)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.count > 2 && Self.isPost(1, $0[2]) }

            // When: 5 rows
            try pane.resize(columns: 60, rows: 5)
            // Then: post 1 under the header, the header claiming post 1 alone
            let five = try await pane.requireScreen { $0.count == 5 && Self.isPost(1, $0[1]) }
            #expect(five[0].contains("posts 1–1 of"), "\(Self.text(five))")
            let posts = five.filter { Self.isPost(1, $0) || Self.isPost(2, $0) }.count
            #expect(posts == 1, "\(Self.text(five))")

            // When: 6 rows; Then: two posts, claimed
            try pane.resize(columns: 60, rows: 6)
            let six = try await pane.requireScreen { $0.count == 6 && $0.contains { Self.isPost(2, $0) } }
            #expect(six[0].contains("posts 1–2 of"), "\(Self.text(six))")

            // When: j at 20×5; Then: post 2 on screen, the current one
            try pane.resize(columns: 20, rows: 5)
            try await pane.requireScreen { $0.count == 5 && Self.isPost(1, $0[1]) }
            try pane.type("j")
            try await pane.requireScreen { $0.count == 5 && Self.isPost(2, $0[1]) }

            try await pane.quitBrowse()
        }
    }

    /// tmux keeps rows of the alternate screen in the shell's screen when the window grew
    /// while browse ran: they showed above the shell's own lines after q. The alternate
    /// screen is cleared before it is left.
    @Test("a window grown while browse runs: after q the shell's screen has nothing of browse's")
    func nothingLeftAfterGrowing() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 30, rows: 6)
            let binary = try PostfeedProcess.executable().path
            try pane.type(
                "clear; echo BEFORE; NO_COLOR=1 \(binary) browse --images none --base-url \(server.baseURL.absoluteString)"
                    + " --cache-dir \(sandbox.cacheRoot.path); echo \"exit $?\" > browse.status",
                enter: true)
            try await pane.requireScreen { $0.contains { Self.isPost(1, $0) } }
            try pane.resize(columns: 40, rows: 14)
            try await pane.requireScreen { $0.count == 14 && $0.contains { Self.isPost(2, $0) } }
            try await pane.quitBrowse()
            let after = try pane.screen()
            let leftovers = after.filter { line in (1...20).contains { Self.isPost($0, line) } || line.hasPrefix("PostFeed") }
            #expect(leftovers.isEmpty, "\(Self.text(after))")
            let shellLineKept = after.contains { $0.trimmingCharacters(in: .whitespaces) == "BEFORE" }
            #expect(shellLineKept, "\(Self.text(after))")
        }
    }

    @Test("1×1 to 80×2: never a crash, the current post on a 1- or 2-row window, j and space move it, back to 80×24 whole")
    func tinyWindows() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 24)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.count > 2 && Self.isPost(1, $0[2]) }

            // When: 40×1; Then: post 1's line alone, no header
            try pane.resize(columns: 40, rows: 1)
            let one = try await pane.requireScreen { $0.count == 1 && Self.isPost(1, $0[0]) }
            #expect(!one[0].hasPrefix("PostFeed"), "\(Self.text(one))")
            // When: j; Then: post 2
            try pane.type("j")
            try await pane.requireScreen { $0.count == 1 && Self.isPost(2, $0[0]) }

            // When: 80×2, then space (a screen: one post); Then: post 3, and a status line
            try pane.resize(columns: 80, rows: 2)
            try await pane.requireScreen { $0.count == 2 && Self.isPost(2, $0[0]) }
            try pane.type(" ")
            try await pane.requireScreen { $0.count == 2 && Self.isPost(3, $0[0]) }

            // When: the smallest sizes, one after another
            for (columns, rows) in [(1, 1), (2, 2), (10, 3), (20, 5), (3, 1)] {
                try pane.resize(columns: columns, rows: rows)
                try await pane.requireScreen { $0.count == rows }
                try await Task.sleep(for: .milliseconds(200))
            }

            // Then: back to 80×24, still running, the full frame with post 3 on top
            try pane.resize(columns: 80, rows: 24)
            let back = try await pane.requireScreen { $0.count == 24 && $0[1].hasPrefix("────") && Self.isPost(3, $0[2]) }
            #expect(back[0].contains("posts 3–"), "\(Self.text(back))")
            try await pane.quitBrowse()
        }
    }

    @Test("? on a 50×12 window scrolls like the detail view: more below, space to the last key, k back up, any other key closes")
    func helpScrolls() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 50, rows: 12)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.count > 2 && Self.isPost(1, $0[2]) }

            // When: ?
            try pane.type("?")
            // Then: the top of the help, saying there is more below; the last key not yet shown
            let top = try await pane.requireScreen { $0.first == "PostFeed · keys" && $0.last?.contains("more below") == true }
            let showsLast = top.contains { $0.hasPrefix("  Ctrl-Z") }
            #expect(!showsLast, "\(Self.text(top))")

            // When: space, and more (the keys the detail view scrolls with); Then: the last key, at the end
            try pane.type("   ")
            let end = try await pane.requireScreen { $0.contains { $0.hasPrefix("  Ctrl-Z") } && $0.last?.contains(", end") == true }
            #expect(end.first != "PostFeed · keys", "\(Self.text(end))")

            // When: k; Then: one line back up, still the help, more below again
            try pane.type("k")
            let up = try await pane.requireScreen { $0.last?.contains("more below") == true }
            #expect(up.first != "PostFeed · keys" && up.count == 12, "\(Self.text(up))")

            // When: any other key; Then: the list again
            try pane.type("x")
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts 1–") == true }
            try await pane.quitBrowse()
        }
    }
}
