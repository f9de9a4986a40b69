import Foundation
import PostFeedServer
import Testing

/// The background catalog load across mode switches, in a real terminal (tmux).
@Suite("postfeed browse: the catalog load survives m (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseCatalogModeTests {
    /// The catalog's progress on the status line (`catalog: 40 of 247 posts loaded…`).
    private static func catalogLoading(_ lines: [String]) -> Bool {
        guard let status = lines.last, let range = status.range(of: "catalog: ") else { return false }
        return status[range.upperBound...].contains(" of 247 posts loaded…")
    }

    /// The `N` of `catalog: all N posts loaded` on the status line, if it says so.
    private static func allLoadedCount(_ lines: [String]) -> Int? {
        guard let status = lines.last, let range = status.range(of: "catalog: all ") else { return nil }
        return Int(status[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("m while the catalog loads, m back: the load goes on to the end, and all N loaded is said only with N the total")
    func modeSwitchDuringCatalogLoad() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            // Given: the catalog loading in the background after a scroll
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen(timeout: .seconds(30)) { $0.first?.hasPrefix("PostFeed · infinite · posts 1–") == true }
            try pane.type("j")
            try await pane.requireScreen { Self.catalogLoading($0) }

            // When: m to paged mode while it loads, a while there, m back and j
            try pane.type("m")
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · paged · page ") == true }
            // (long enough for the old walk to have ended meanwhile)
            try await Task.sleep(for: .seconds(6))
            try pane.type("m")
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts ") == true }
            try pane.type("j")

            // Then: the whole catalog, never "all N" with N short of 247
            var claims: Set<Int> = []
            let loaded = try await pane.waitForScreen(timeout: .seconds(60)) { lines in
                if let count = Self.allLoadedCount(lines) { claims.insert(count) }
                return lines.first?.contains("of 247 loaded") == true && Self.allLoadedCount(lines) == 247
            }
            #expect(loaded.ok, "\(loaded.screen.joined(separator: "\n"))")
            #expect(claims.subtracting([247]).isEmpty, "said all \(claims.sorted()) posts loaded")

            // And: s says what it does
            try pane.type("s")
            let sorted = try await pane.waitForScreen { $0.first?.contains("most popular first") == true }
            #expect(sorted.ok, "\(sorted.screen.joined(separator: "\n"))")
            #expect(sorted.screen.first?.contains("of 247 loaded") == true, "\(sorted.screen.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }
}
