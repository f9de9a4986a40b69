import Foundation
import PostFeedServer
import Testing

/// `browse` never frozen, in a real terminal (tmux): loads run while keys are handled.
@Suite("postfeed browse while pages load (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseLoadingTests {
    private static func isHeader(_ line: String?) -> Bool { line?.hasPrefix("PostFeed · ") == true }

    /// Whether the screen shows the list with post `number` on top.
    private static func showsPosts(from number: Int, _ lines: [String]) -> Bool {
        lines.first?.contains("posts \(number)–") == true && lines.count > 2 && lines[2].hasPrefix(String(number).leftPadded(4) + ".")
    }

    /// Starts `browse` in the pane after recording `stty -g`; the shell records it again
    /// when browse has exited, and the exit status in `browse.status`.
    private func startBrowse(in pane: TmuxPane, sandbox: Sandbox, baseURL: URL, environment: String = "") throws {
        let binary = try PostfeedProcess.executable().path
        try pane.type("stty -g > stty-before; clear", enter: true)
        try pane.type(
            "\(environment)\(binary) browse --base-url \(baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                + "; echo \"exit $?\" > browse.status; stty -g > stty-after",
            enter: true)
    }

    /// Asserts browse exited 0 with the terminal as it found it.
    private func expectCleanExit(_ pane: TmuxPane, _ sandbox: Sandbox, status expected: String = "exit 0\n") async throws {
        let status = try await pane.waitForFile("browse.status")
        #expect(status == expected, "\(status ?? "no status")")
        let after = try await pane.waitForFile("stty-after")
        let before = try String(contentsOf: sandbox.directory.appendingPathComponent("stty-before"), encoding: .utf8)
        #expect(after == before, "stty -g before \(before), after \(after ?? "never")")
    }

    @Test("against a slow server: a frame at once, the indicator while loading, j and ? handled during the load, q quits at once and saves")
    func keysDuringALoad() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(3000))) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)

            // Then: not a blank screen for 3 s, but the header saying what loads
            let opening = try await pane.waitForScreen { Self.isHeader($0.first) && $0[0].contains("opening infinite mode") }
            #expect(opening.ok, "\(opening.screen.joined(separator: "\n"))")
            let first = try await pane.waitForScreen { Self.showsPosts(from: 1, $0) }
            try #require(first.ok, "\(first.screen.joined(separator: "\n"))")

            // When: g 100 (four more pages, 3 s each)
            try pane.type("g100", enter: true)
            let loading = try await pane.waitForScreen { $0.first?.contains("loading up to post #100") == true }
            #expect(loading.ok, "\(loading.screen.joined(separator: "\n"))")

            // When: j and ? during the load
            try pane.type("j")
            let moved = try await pane.waitForScreen { Self.showsPosts(from: 2, $0) && $0[0].contains("loading up to post #100") }
            #expect(moved.ok, "j moves at once, while post #100 still loads: \(moved.screen.joined(separator: "\n"))")
            try pane.type("?")
            let help = try await pane.waitForScreen { $0.first == "PostFeed · keys" }
            #expect(help.ok, "\(help.screen.joined(separator: "\n"))")
            try pane.type("x")
            let back = try await pane.waitForScreen { Self.showsPosts(from: 2, $0) && $0[0].contains("loading up to post #100") }
            #expect(back.ok, "\(back.screen.joined(separator: "\n"))")

            // When: q while the load runs
            let clock = ContinuousClock()
            let pressed = clock.now
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
            let took = clock.now - pressed

            // Then: out at once (a page takes 3 s), the place saved (post #2 on top)
            #expect(status == "exit 0\n", "\(status ?? "no status")")
            #expect(took < .milliseconds(500), "q took \(took) while a page loaded")
            try await expectCleanExit(pane, sandbox)
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 1)
        }
    }

    @Test("Esc stops g beyond the loaded posts and the posts stay; Ctrl-C during a load restores the terminal and saves")
    func escapeStopsGoTo() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(1500))) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsPosts(from: 1, $0) }

            // When: g 200, then Esc while it loads
            try pane.type("g200", enter: true)
            try await pane.requireScreen { $0.first?.contains("loading up to post #200") == true }
            try pane.press("Escape")

            // Then: stopped, said so, the same posts on screen, and keys go on
            let stopped = try await pane.waitForScreen { $0.last?.hasPrefix("stopped loading") == true }
            #expect(stopped.ok, "\(stopped.screen.joined(separator: "\n"))")
            #expect(stopped.screen.first?.contains("loading") == false, "\(stopped.screen.joined(separator: "\n"))")
            #expect(Self.showsPosts(from: 1, stopped.screen), "\(stopped.screen.joined(separator: "\n"))")
            try pane.type("j")
            try await pane.requireScreen { Self.showsPosts(from: 2, $0) }

            // When: Ctrl-C during another load
            try pane.type("g200", enter: true)
            try await pane.requireScreen { $0.first?.contains("loading up to post #200") == true }
            try pane.press("C-c")

            // Then: saved, 130 as after any Ctrl-C
            try await expectCleanExit(pane, sandbox, status: "exit 130\n")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 1)
        }
    }

    @Test("r when the server is gone: the posts stay, the status says why (l shows it whole), r retries once it is back")
    func refreshFailureKeepsContent() async throws {
        let sandbox = try Sandbox()
        let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 24)
        let port = try await withFixtureServer { server in
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsPosts(from: 1, $0) }
            return server.port
        }
        // The server is stopped now.
        let before = try pane.screen()

        // When
        try pane.type("r")

        // Then: the old posts, and why on the status line, cut with its marker
        let failed = try await pane.waitForScreen { $0.last?.hasPrefix("refresh failed") == true }
        #expect(failed.ok, "\(failed.screen.joined(separator: "\n"))")
        #expect(Array(failed.screen[0..<22]) == Array(before[0..<22]), "\(failed.screen.joined(separator: "\n"))")
        #expect(failed.screen.last?.hasSuffix("… [l]") == true, "\(failed.screen.joined(separator: "\n"))")

        // When: l
        try pane.type("l")
        let whole = try await pane.waitForScreen { $0.joined(separator: " ").contains("r tries again") }
        #expect(whole.ok, "\(whole.screen.joined(separator: "\n"))")
        // The reason is the network's, not "is not cached": the cached posts are right there.
        let wholeText = whole.screen.joined(separator: " ")
        #expect(!wholeText.contains("not cached") && wholeText.contains("cannot connect"), "\(wholeText)")
        try pane.type("x")

        // When: the server is back, r again
        try await withFixtureServer(port: port) { _ in
            try pane.type("r")
            let refreshed = try await pane.waitForScreen { $0.last?.hasPrefix("refreshed from the network") == true }
            #expect(refreshed.ok, "\(refreshed.screen.joined(separator: "\n"))")
            #expect(Self.showsPosts(from: 1, refreshed.screen))
            try pane.type("q")
            try await expectCleanExit(pane, sandbox)
        }
    }

    @Test(
        "after the first scroll the catalog loads in the background with its progress; s orders across all of it")
    func catalogAndPopularity() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await pane.requireScreen { Self.showsPosts(from: 1, $0) }
            #expect(try pane.screen().first?.contains("of 20 loaded") == true, "no catalog load before a scroll")

            // When: one scroll
            try pane.type("j")

            // Then: the whole catalog, its progress on the status line
            let loaded = try await pane.waitForScreen {
                $0.last?.contains("catalog: all 247 posts loaded") == true && $0.first?.contains("of 247 loaded") == true
            }
            #expect(loaded.ok, "\(loaded.screen.joined(separator: "\n"))")
            #expect(loaded.screen.first?.contains("of 247 loaded") == true, "\(loaded.screen.joined(separator: "\n"))")

            // When: s
            try pane.type("s")

            // Then: most popular first across the 247 posts, the post on top kept
            let sorted = try await pane.waitForScreen { $0.first?.contains("most popular first") == true }
            #expect(sorted.ok, "\(sorted.screen.joined(separator: "\n"))")
            // (the post on top stays on top: screens back up to the most popular)
            try pane.type(String(repeating: "b", count: 30))
            let top = try await pane.waitForScreen { $0.first?.contains("most popular first · 1–12 of 247 loaded") == true }
            #expect(top.ok, "\(top.screen.joined(separator: "\n"))")
            let popularity = top.screen.compactMap { line -> Double? in
                guard let range = line.range(of: "popularity ") else { return nil }
                return Double(line[range.upperBound...].prefix(4))
            }
            #expect(popularity.first == 1.0, "\(top.screen.joined(separator: "\n"))")
            #expect(popularity == popularity.sorted(by: >), "\(popularity)")
            try pane.type("q")
            try await expectCleanExit(pane, sandbox)
        }
    }

    @Test("colour on a terminal, none with NO_COLOR; the current post in reverse video either way")
    func colourAndNoColour() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            for noColour in [false, true] {
                let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
                try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL, environment: noColour ? "NO_COLOR=1 " : "")
                try await pane.requireScreen { Self.showsPosts(from: 1, $0) }
                let styled = try pane.screen(escapes: true)
                #expect(styled[0].contains("36m") != noColour, "NO_COLOR \(noColour): \(styled[0])")
                #expect(styled[2].contains("\u{1B}[7m"), "\(styled[2])")
                try pane.type("q")
                try await expectCleanExit(pane, sandbox)
                try? FileManager.default.removeItem(at: sandbox.directory.appendingPathComponent("browse.status"))
                try? FileManager.default.removeItem(at: sandbox.directory.appendingPathComponent("stty-after"))
            }
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns (as `list` prints post numbers).
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
