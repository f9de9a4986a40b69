import Foundation
import PostFeedServer
import Testing

/// `browse --images` in a real terminal (tmux): the preview above the detail text, `i`
/// and the list's thumbnails, keys while an image loads.
@Suite("postfeed browse image previews (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowsePreviewTerminalTests {
    /// Starts `browse ARGS` in the pane (monochrome: the screen is compared as text); the
    /// exit status goes to `browse.status`.
    private func startBrowse(_ arguments: String, in pane: TmuxPane, sandbox: Sandbox, baseURL: URL) throws {
        let binary = try PostfeedProcess.executable().path
        try pane.type(
            "clear; NO_COLOR=1 \(binary) browse \(arguments) --base-url \(baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                + "; echo \"exit $?\" > browse.status",
            enter: true)
    }

    /// The list with post `number` on top (no thumbnails: the entry starts the line).
    private static func showsList(from number: Int, _ lines: [String]) -> Bool {
        lines.first?.contains("posts \(number)–") == true && lines.count > 2 && lines[2].hasPrefix(String(number).leftPaddedTo(4) + ".")
    }

    /// The rows above post `id`'s detail title, when the detail view is on screen.
    private static func rowsAbove(title id: Int, _ lines: [String]) -> [String]? {
        lines.firstIndex { $0.contains("#\(id)  ") }.map { Array(lines[..<$0]) }
    }

    /// Drawn rows above post `id`'s detail title (0 when the detail view is not shown).
    private static func previewRows(title id: Int, _ lines: [String]) -> Int {
        drawn(rowsAbove(title: id, lines) ?? []).count
    }

    private static func drawn(_ rows: [String]) -> [String] {
        rows.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    private func quit(_ pane: TmuxPane) async throws {
        try pane.type("q")
        let status = try await pane.waitForFile("browse.status")
        #expect(status == "exit 0\n", "\(status ?? "no status")")
    }

    @Test("o draws symbols above the text, other cells for another post's image; --images none draws none")
    func detailPreview() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 40)
            try startBrowse("--images symbols", in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsList(from: 1, $0) }

            // When: o on post 1; Then: its preview (at most half the 40 rows) above its text
            try pane.type("o")
            let first = try await pane.waitForScreen { lines in Self.previewRows(title: 1, lines) >= 5 }
            #expect(first.ok, "\(first.screen.joined(separator: "\n"))")
            let rows1 = Self.rowsAbove(title: 1, first.screen) ?? []
            #expect(rows1.count <= 20, "\(rows1.count) rows above the text")
            #expect(first.screen.contains("(any key to go back)"), "\(first.screen.joined(separator: "\n"))")

            // When: back, down one, o on post 2; Then: other cells
            try pane.type("x")
            try await pane.requireScreen { Self.showsList(from: 1, $0) }
            try pane.type("j")
            try await pane.requireScreen { Self.showsList(from: 2, $0) }
            try pane.type("o")
            let second = try await pane.waitForScreen { lines in Self.previewRows(title: 2, lines) >= 5 }
            #expect(second.ok, "\(second.screen.joined(separator: "\n"))")
            #expect(Self.rowsAbove(title: 2, second.screen) != rows1, "post 2's image differs from post 1's")
            try pane.type("x")
            try await quit(pane)

            // --images none: the title is the first line
            try startBrowse("--images none", in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsList(from: 2, $0) }
            try pane.type("o")
            let plain = try await pane.waitForScreen { $0.first?.contains("#2  ") == true }
            #expect(plain.ok, "\(plain.screen.joined(separator: "\n"))")
            try pane.type("x")
            try await quit(pane)
        }
    }

    @Test("i puts thumbnails beside the posts and takes them away again")
    func thumbnailsToggle() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse("--images symbols", in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsList(from: 1, $0) }

            // When: i; Then: the entries move right, with symbols drawn at their left
            try pane.type("i")
            let on = try await pane.waitForScreen { lines in
                lines.count > 5 && lines[2].contains("    1. ") && !Self.drawn([String(lines[2].prefix(8))]).isEmpty
                    && !Self.drawn([String(lines[4].prefix(8))]).isEmpty
            }
            #expect(on.ok, "\(on.screen.joined(separator: "\n"))")

            // When: i again; Then: the list as before
            try pane.type("i")
            let off = try await pane.waitForScreen { Self.showsList(from: 1, $0) }
            #expect(off.ok, "\(off.screen.joined(separator: "\n"))")
            try await quit(pane)
        }
    }

    @Test("a slow image: o shows the text at once, keys work while the image loads, closing drops it")
    func keysWhileThePreviewLoads() async throws {
        let sandbox = try Sandbox()
        // Post 1's image (46 kB) at 8 kB/s: about 6 s.
        try await withFixtureServer(faults: FaultInjection(bandwidthLimits: ["/images/img-001.jpg": 8_192])) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse("--images symbols", in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen(timeout: .seconds(30)) { Self.showsList(from: 1, $0) }

            // When: o; Then: the text at once, no preview yet
            try pane.type("o")
            let text = try await pane.waitForScreen { lines in Self.rowsAbove(title: 1, lines) != nil }
            #expect(text.ok, "\(text.screen.joined(separator: "\n"))")
            #expect(Self.drawn(Self.rowsAbove(title: 1, text.screen) ?? ["x"]).isEmpty, "\(text.screen.joined(separator: "\n"))")

            // When: a key goes back and j moves, while the image still loads
            try pane.type("x")
            try pane.type("j")
            let moved = try await pane.waitForScreen { Self.showsList(from: 2, $0) }
            #expect(moved.ok, "\(moved.screen.joined(separator: "\n"))")

            // Then: the cancelled preview never comes back over the list
            try await Task.sleep(for: .seconds(7))
            let later = try pane.screen()
            #expect(Self.showsList(from: 2, later), "\(later.joined(separator: "\n"))")

            // And o again draws it (the image arrives in its time)
            try pane.type("o")
            let drawn = try await pane.waitForScreen(timeout: .seconds(30)) { lines in Self.previewRows(title: 2, lines) >= 5 }
            #expect(drawn.ok, "\(drawn.screen.joined(separator: "\n"))")
            try pane.type("x")
            try await quit(pane)
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns (shorter strings only).
    fileprivate func leftPaddedTo(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
