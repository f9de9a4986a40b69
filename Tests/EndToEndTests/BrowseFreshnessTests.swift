import Foundation
import SuiteSupport
import PostFeedServer
import Testing

/// `browse` never frozen by a slow server when the page cache holds the pages: the cached
/// posts are on screen at once whatever their age, and replaced when the server's fresher
/// copy arrives, the highlighted post kept. In a real terminal (tmux).
@Suite("postfeed browse: cached posts at once, fresher ones after (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseFreshnessTests {
    /// The slow server's latency: far longer than drawing a cached page takes.
    private static let latency = Duration.milliseconds(3000)

    /// Post 1's title in `Fixtures/posts.json`.
    private static func firstTitle() throws -> String {
        let data = try Data(contentsOf: FixtureLocator.fixturesDirectory().appendingPathComponent("posts.json"))
        let posts = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        return try #require(posts?.first?["title"] as? String)
    }

    /// The list line of post 1 (the first entry, under the header and its rule) with `title`.
    private static func showsFirstPost(titled title: String, _ lines: [String]) -> Bool {
        lines.count > 2 && lines[2].hasPrefix("   1. \(title)")
    }

    private func startBrowse(in pane: TmuxPane, sandbox: Sandbox, baseURL: URL, options: String = "") throws {
        let binary = try PostfeedProcess.executable().path
        try pane.type("rm -f browse.status; clear", enter: true)
        try pane.type(
            "\(binary) browse --base-url \(baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)\(options)"
                + "; echo \"exit $?\" > browse.status",
            enter: true)
    }

    /// Waits for the first entry titled `old`, then for it titled `new`: the old one must be
    /// on screen first, and the updated post must be the highlighted one, with the status
    /// line saying what was updated. Then quits.
    private func expectOldThenNew(
        _ pane: TmuxPane, sandbox: Sandbox, old: String, new: String, mode: String
    ) async throws {
        let first = try await pane.waitForScreen { $0.count > 2 && $0[2].hasPrefix("   1. ") }
        try #require(first.ok, "\(first.screen.joined(separator: "\n"))")
        #expect(Self.showsFirstPost(titled: old, first.screen), "\(mode): the cached post first\n\(first.screen.joined(separator: "\n"))")
        #expect(first.screen[0].contains("PostFeed · \(mode)"), "\(first.screen.joined(separator: "\n"))")

        let updated = try await pane.waitForScreen { Self.showsFirstPost(titled: new, $0) }
        #expect(updated.ok, "\(mode): the fresher post never came\n\(updated.screen.joined(separator: "\n"))")
        #expect(updated.screen.last?.contains("updated page 1") == true, "\(updated.screen.joined(separator: "\n"))")
        let styled = try pane.screen(escapes: true)
        #expect(styled[2].contains("\u{1B}[7m") && styled[2].contains(new), "the highlighted post: \(styled[2])")

        try pane.type("q")
        let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
        #expect(status == "exit 0\n", "\(status ?? "no status")")
    }

    @Test("an expired cache behind a slow server: the cached title at once, then the revised one on the same highlighted post; infinite and paged")
    func cachedThenFresher() async throws {
        let sandbox = try Sandbox()
        let title = try Self.firstTitle()
        // Given: page 1 cached by an earlier run, expired at once (max-age=0)
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), pageMaxAge: 0)) { server in
            let warm = try await sandbox.run(["list", "--pages", "1", "--no-images"], against: server)
            #expect(warm.succeeded, "\(warm)")
            return server.port
        }
        // Given: the same server back, slow, with post 1 revised since
        let slow = FixtureServerConfiguration(port: port, faults: FaultInjection(latency: Self.latency), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            server.revise(postIDs: [1])
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)

            // When / Then: infinite mode
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await expectOldThenNew(pane, sandbox: sandbox, old: title, new: "(revision 1) \(title)", mode: "infinite")

            // When / Then: paged mode, with post 1 revised again
            let switched = try await sandbox.run(["mode", "paged"], against: server)
            #expect(switched.succeeded, "\(switched)")
            server.revise(postIDs: [1])
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            try await expectOldThenNew(
                pane, sandbox: sandbox, old: "(revision 1) \(title)", new: "(revision 2) \(title)", mode: "paged")
        }
    }

    @Test("a post deleted upstream while post #5 is on top: once page 1 is updated, post 5 is still the highlighted post, now #4")
    func deletedPostKeepsTheReadersPost() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let file = fixtures.directory.appendingPathComponent("posts.json")
        let posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let fifth = try #require(posts[4]["title"] as? String)
        // Given: page 1 cached (expired at once), post #5 on top
        let port = try await RunningFixtureServer.withRunning(
            FixtureServerConfiguration(port: TestPorts.reserve(), fixturesDirectory: fixtures.directory, pageMaxAge: 0)
        ) { server in
            let warm = try await sandbox.run(["browse"], against: server, standardInput: Data("jjjjq".utf8))
            #expect(warm.succeeded, "\(warm)")
            return server.port
        }
        #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 4)
        // Given: post 2 deleted upstream, the server slow
        let remaining = posts.filter { ($0["id"] as? Int) != 2 }
        try JSONSerialization.data(withJSONObject: remaining).write(to: file)
        let slow = FixtureServerConfiguration(
            port: port, fixturesDirectory: fixtures.directory, faults: FaultInjection(latency: Self.latency), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)

            // Then: the cached page at once, post #5 on top
            let cached = try await pane.waitForScreen { $0.count > 2 && $0[2].hasPrefix("   5. ") }
            #expect(cached.ok && cached.screen[2].hasPrefix("   5. \(fifth)"), "\(cached.screen.joined(separator: "\n"))")

            // Then: updated, post 5 still on top and highlighted, numbered 4 now
            let updated = try await pane.waitForScreen { $0.last?.contains("updated page 1") == true }
            #expect(updated.ok, "\(updated.screen.joined(separator: "\n"))")
            let moved = try await pane.waitForScreen { $0.count > 2 && $0[2].hasPrefix("   4. \(fifth)") }
            #expect(moved.ok, "\(moved.screen.joined(separator: "\n"))")
            let styled = try pane.screen(escapes: true)
            #expect(styled[2].contains("\u{1B}[7m") && styled[2].contains(fifth), "the highlighted post: \(styled[2])")

            try pane.type("q")
            let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }

    /// Opens the post on top (titled `old`), expects its old text first, then `new` in the
    /// detail view still open; then quits.
    private func expectDetailFollows(_ pane: TmuxPane, old: String, new: String) async throws {
        try pane.type("o")
        let opened = try await pane.waitForScreen { $0.joined(separator: "\n").contains("key to go back") }
        let first = opened.screen.joined(separator: "\n")
        #expect(opened.ok && first.contains(old) && !first.contains(new), "\(first)")
        let revised = try await pane.waitForScreen {
            let text = $0.joined(separator: "\n")
            return text.contains(new) && text.contains("key to go back")
        }
        #expect(revised.ok, "the detail view kept the old copy\n\(revised.screen.joined(separator: "\n"))")
        try pane.type("x")
        try pane.type("q")
        let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
        #expect(status == "exit 0\n", "\(status ?? "no status")")
    }

    @Test("the detail view open on a revised post of an expired page is drawn again with the newer copy (infinite and paged); a post gone upstream stays, the view says it is gone")
    func detailViewFollowsTheNewerCopy() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let file = fixtures.directory.appendingPathComponent("posts.json")
        let title = try Self.firstTitle()
        // Given: page 1 cached by an earlier run, expired at once
        let port = try await RunningFixtureServer.withRunning(
            FixtureServerConfiguration(port: TestPorts.reserve(), fixturesDirectory: fixtures.directory, pageMaxAge: 0)
        ) { server in
            let warm = try await sandbox.run(["list", "--pages", "1", "--no-images"], against: server)
            #expect(warm.succeeded, "\(warm)")
            return server.port
        }
        let slow = FixtureServerConfiguration(
            port: port, fixturesDirectory: fixtures.directory, faults: FaultInjection(latency: Self.latency), pageMaxAge: 0)
        let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            // Given: post 1 revised since, the server slow
            server.revise(postIDs: [1])
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            let first = try await pane.waitForScreen { Self.showsFirstPost(titled: title, $0) }
            try #require(first.ok, "\(first.screen.joined(separator: "\n"))")

            // When / Then: post 1 opened before the check ends shows the newer copy once it comes
            try await expectDetailFollows(pane, old: title, new: "(revision 1) \(title)")

            // When / Then: the same in paged mode, with post 1 revised again
            let switched = try await sandbox.run(["mode", "paged"], against: server)
            #expect(switched.succeeded, "\(switched)")
            server.revise(postIDs: [1])
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            let paged = try await pane.waitForScreen { Self.showsFirstPost(titled: "(revision 1) \(title)", $0) }
            try #require(paged.ok, "\(paged.screen.joined(separator: "\n"))")
            try await expectDetailFollows(pane, old: "(revision 1) \(title)", new: "(revision 2) \(title)")
            let back = try await sandbox.run(["mode", "infinite"], against: server)
            #expect(back.succeeded, "\(back)")
        }

        // Given: post 1 deleted upstream
        let posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let remaining = posts.filter { ($0["id"] as? Int) != 1 }
        try JSONSerialization.data(withJSONObject: remaining).write(to: file)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            let first = try await pane.waitForScreen { Self.showsFirstPost(titled: "(revision 2) \(title)", $0) }
            try #require(first.ok, "\(first.screen.joined(separator: "\n"))")

            // When: post 1 opened before the check ends
            try pane.type("o")

            // Then: still post 1's text, saying it is gone
            let gone = try await pane.waitForScreen { $0.joined(separator: "\n").contains("no longer on the server") }
            let text = gone.screen.joined(separator: "\n")
            #expect(gone.ok && text.contains("(revision 2) \(title)") && text.contains("key to go back"), "\(text)")
            try pane.type("x")
            let list = try await pane.waitForScreen { $0.last?.contains("post 1 is no longer on the server") == true }
            #expect(list.ok, "\(list.screen.joined(separator: "\n"))")
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }

    @Test("browse --offline: an expired cache says once on the status line that the cached posts may be out of date; a fresh one does not")
    func offlineSaysCachedPostsMayBeOld() async throws {
        let title = try Self.firstTitle()
        for maxAge in [0, 3600] {
            let sandbox = try Sandbox()
            // Given: page 1 cached (expired at once, or fresh for an hour), then the server gone
            let baseURL = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: maxAge)) { server in
                let warm = try await sandbox.run(["list", "--pages", "1", "--no-images"], against: server)
                #expect(warm.succeeded, "\(warm)")
                return server.baseURL
            }
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)

            // When
            try startBrowse(in: pane, sandbox: sandbox, baseURL: baseURL, options: " --offline")

            // Then: the cached posts; the status line says they may be old only when expired
            // (it is set with the first view of the posts, so the first frame showing them has it)
            let shown = try await pane.waitForScreen { Self.showsFirstPost(titled: title, $0) }
            #expect(shown.ok, "\(shown.screen.joined(separator: "\n"))")
            let said = shown.screen.last?.contains("cached posts may be out of date: offline") == true
            #expect(said == (maxAge == 0), "max-age \(maxAge)\n\(shown.screen.joined(separator: "\n"))")
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }

    @Test("q while the expired page is being checked quits without waiting for the server, and saves")
    func quitWhileChecking() async throws {
        let sandbox = try Sandbox()
        let title = try Self.firstTitle()
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), pageMaxAge: 0)) { server in
            let warm = try await sandbox.run(["list", "--pages", "1", "--no-images"], against: server)
            #expect(warm.succeeded, "\(warm)")
            return server.port
        }
        // A server slower than the wait for browse's exit below: a q that waited for the
        // check would not be out in time.
        let verySlow = FixtureServerConfiguration(port: port, faults: FaultInjection(latency: .seconds(30)), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(verySlow, waitingForPort: .seconds(15)) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, baseURL: server.baseURL)
            let checking = try await pane.waitForScreen {
                Self.showsFirstPost(titled: title, $0) && $0.first?.contains("checking for newer posts") == true
            }
            #expect(checking.ok, "\(checking.screen.joined(separator: "\n"))")

            try pane.type("q")

            let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
            #expect(status == "exit 0\n", "\(status ?? "no status")")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 0)
        }
    }

    @Test("an expired cache and the server gone: the cached posts stay, the status line says they are cached and why")
    func cachedWhenTheServerIsGone() async throws {
        let sandbox = try Sandbox()
        let title = try Self.firstTitle()
        // Given: page 1 cached and expired, then the server stopped
        let baseURL = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), pageMaxAge: 0)) { server in
            let warm = try await sandbox.run(["list", "--pages", "1", "--no-images"], against: server)
            #expect(warm.succeeded, "\(warm)")
            return server.baseURL
        }
        let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)

        // When
        try startBrowse(in: pane, sandbox: sandbox, baseURL: baseURL)

        // Then: the cached posts, and why they are not checked
        let cached = try await pane.waitForScreen { $0.last?.hasPrefix("showing cached posts: page 1 could not be checked") == true }
        #expect(cached.ok, "\(cached.screen.joined(separator: "\n"))")
        #expect(Self.showsFirstPost(titled: title, cached.screen), "\(cached.screen.joined(separator: "\n"))")
        try pane.type("l")
        let whole = try await pane.waitForScreen { $0.joined(separator: " ").contains("network failed") }
        #expect(whole.ok, "\(whole.screen.joined(separator: "\n"))")
        try pane.type("x")
        try pane.type("q")
        let status = try await pane.waitForFile("browse.status", timeout: .seconds(10))
        #expect(status == "exit 0\n", "\(status ?? "no status")")
    }
}
