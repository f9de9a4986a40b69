import Foundation
import PostFeedServer
import Testing

/// Keys typed ahead in a real terminal (tmux): applied in order once what they need has
/// loaded, never dropped.
@Suite("postfeed browse: keys typed ahead are applied in order (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseTypeAheadTests {
    /// The number of the post on top of the list, from its header (`posts 13–24 of …`).
    private static func topNumber(_ lines: [String]) -> Int? {
        guard let header = lines.first, header.hasPrefix("PostFeed · infinite · posts "),
              let range = header.range(of: "posts ")
        else { return nil }
        return Int(header[range.upperBound...].prefix { $0.isNumber })
    }

    /// Whether the list shows post `number` on top.
    private static func showsPosts(from number: Int, _ lines: [String]) -> Bool {
        topNumber(lines) == number && lines.count > 2 && lines[2].hasPrefix(String(number).leftPadded(4) + ".")
    }

    /// Whether the header says nothing is loading (nothing at its right).
    private static func settled(_ lines: [String]) -> Bool {
        lines.first.map { !$0.contains("loading") && !$0.contains("opening") } ?? false
    }

    @Test("g 9 Enter j typed in one burst from post 200, every page cached, ends at post 10")
    func goToThenMoveInOneBurst() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: browse at post 200, the pages before it loaded
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { Self.showsPosts(from: 1, $0) }
            try pane.type("g200", enter: true)
            try await pane.requireScreen { Self.showsPosts(from: 200, $0) && Self.settled($0) }

            // When: g 9 Enter j, one write to the terminal
            try pane.type("g9\rj")

            // Then: the jump, then the step after it
            let landed = try await pane.waitForScreen { (Self.topNumber($0) == 10 || Self.topNumber($0) == 201) && Self.settled($0) }
            #expect(landed.ok, "\(landed.screen.joined(separator: "\n"))")
            #expect(Self.showsPosts(from: 10, landed.screen), "\(landed.screen.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }

    @Test("spaces typed while the next page loads (2 s a page) take the reader where they would have, once the pages arrive")
    func spacesPastTheLoadedEnd() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(2000))) { server in
            // Given: the first page (20 posts), one screen on
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen(timeout: .seconds(30)) { Self.showsPosts(from: 1, $0) && Self.settled($0) }
            try pane.type(" ")
            let first = try await pane.requireScreen { (Self.topNumber($0) ?? 1) > 1 }
            let screenful = try #require(Self.topNumber(first)) - 1

            // When: four more spaces at once, past the 20 posts loaded
            try pane.type("    ")

            // Then: once pages 2…4 arrive, where five screens take the reader
            let expected = 1 + 5 * screenful
            let landed = try await pane.waitForScreen(timeout: .seconds(60)) { Self.showsPosts(from: expected, $0) }
            #expect(landed.ok, "expected post \(expected) on top:\n\(landed.screen.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }

    @Test("keys pressed before the first page arrives are applied once it is there")
    func keysBeforeTheFirstPage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(2000))) { server in
            // Given: browse opening against a slow server
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.first?.contains("opening infinite mode") == true }

            // When: three j's before the first page
            try pane.type("jjj")

            // Then: post 4 on top once the page is there
            let settled = try await pane.waitForScreen(timeout: .seconds(30)) { Self.showsPosts(from: 4, $0) }
            #expect(settled.ok, "\(settled.screen.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }

    @Test("Esc drops the keys waiting for a page and says so; the next key is handled at once")
    func escapeDropsKeysTypedAhead() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(5000))) { server in
            // Given: spaces waiting for the next page (5 s)
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen(timeout: .seconds(45)) { Self.showsPosts(from: 1, $0) && Self.settled($0) }
            try pane.type("    ")
            let waiting = try await pane.requireScreen { (Self.topNumber($0) ?? 1) > 1 }
            let top = try #require(Self.topNumber(waiting))

            // When: Esc, then k
            try pane.press("Escape")
            let dropped = try await pane.waitForScreen { $0.last?.contains("keys typed ahead dropped") == true }
            #expect(dropped.ok, "\(dropped.screen.joined(separator: "\n"))")
            try pane.type("k")

            // Then: one post up from where the first space went, at once
            let moved = try await pane.waitForScreen { Self.topNumber($0) == top - 1 }
            #expect(moved.ok, "\(moved.screen.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns (as `list` prints post numbers).
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
