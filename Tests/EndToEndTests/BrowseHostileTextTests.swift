import Foundation
import PostFeedServer
import Testing

@testable import postfeed

/// `browse` in a real terminal (tmux) against a backend whose posts carry control
/// characters: nothing a server sends reaches the terminal as a control (an OSC setting the
/// title, SGR colours, a tab, line breaks), and widths are counted on the cleaned text.
@Suite("postfeed browse: a server's control characters never reach the terminal (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseHostileTextTests {
    /// Post 1's title, author and body with an OSC title change, SGR red, a tab and line breaks.
    static let title = "Evil \u{1B}]2;PWNED\u{07}title \u{1B}[31mred\ttab\nnew\r\nline\u{1B}[0m"
    /// What the terminal shows of it: the controls dropped (an escape's parameters stay as
    /// harmless text), the tab and the line breaks as spaces.
    static let cleanedTitle = title.terminalLine
    static let author = "Mallory\u{1B}[5m\u{1B}]2;AUTHOR-PWNED\u{07}"
    static let body = "First \u{1B}[41mparagraph\u{1B}[0m\tends.\n\n\u{1B}]2;BODY-PWNED\u{07}Second paragraph."

    /// A fixtures copy whose post 1 carries ``title``, ``author`` and ``body``.
    static func hostileFixtures() throws -> FixtureCopy {
        let fixtures = try FixtureCopy()
        let file = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        posts[0]["title"] = title
        posts[0]["author"] = author
        posts[0]["body"] = body
        try JSONSerialization.data(withJSONObject: posts).write(to: file)
        return fixtures
    }

    private func paneTitle(_ pane: TmuxPane) throws -> String {
        try pane.tmux(["display-message", "-p", "-t", "t", "#{pane_title}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("ESC, OSC, tab and line breaks in a title, an author and a body: one clean title row, no colour, the pane title unchanged; the detail view too")
    func controlsAreDropped() async throws {
        let sandbox = try Sandbox()
        let fixtures = try Self.hostileFixtures()
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            let titleBefore = try paneTitle(pane)
            let binary = try PostfeedProcess.executable().path
            try pane.type(
                "clear; \(binary) browse --images none --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                    + "; echo \"exit $?\" > browse.status",
                enter: true)

            // Then: the title on one row, cleaned; the author's line right under it
            let list = try await pane.requireScreen { $0.count > 4 && $0[2].hasPrefix("   1. ") }
            #expect(list[2].hasPrefix("   1. \(Self.cleanedTitle)"), "\(list.joined(separator: "\n"))")
            #expect(list[3].hasPrefix("      \(Self.author.terminalLine) · "), "the title takes one row\n\(list.joined(separator: "\n"))")
            #expect(list[4].hasPrefix("   2. "), "\(list.joined(separator: "\n"))")
            // Then: no colour the server asked for, no blink; the title is not the server's
            let styled = try pane.screen(escapes: true).joined(separator: "\n")
            #expect(!styled.contains("\u{1B}[31m") && !styled.contains("\u{1B}[5m"), "\(styled)")
            let titleAfterList = try paneTitle(pane)
            #expect(titleAfterList == titleBefore && !titleAfterList.contains("PWNED"), "pane title \(titleAfterList)")

            // When: the post opened
            try pane.type("o")
            let detail = try await pane.requireScreen { $0.first?.hasPrefix("#1  ") == true }
            #expect(detail[0] == "#1  \(Self.cleanedTitle)", "\(detail.joined(separator: "\n"))")
            #expect(detail[1].hasPrefix("\(Self.author.terminalLine) · "), "\(detail.joined(separator: "\n"))")
            let text = detail.joined(separator: "\n")
            let paragraphs = Self.body.terminalLines.components(separatedBy: "\n").filter { !$0.isEmpty }
            #expect(paragraphs.count == 2, "\(paragraphs)")
            let showsBody = paragraphs.allSatisfy { text.contains($0) }
            #expect(showsBody, "\(paragraphs)\n\(text)")
            let styledDetail = try pane.screen(escapes: true).joined(separator: "\n")
            #expect(!styledDetail.contains("\u{1B}[41m") && !styledDetail.contains("\u{1B}[5m"), "\(styledDetail)")
            let titleAfterDetail = try paneTitle(pane)
            #expect(titleAfterDetail == titleBefore && !titleAfterDetail.contains("PWNED"), "pane title \(titleAfterDetail)")

            try pane.type("x")
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status")
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }
}
