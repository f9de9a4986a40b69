import Foundation
import PostFeedServer
import Testing

@Suite("bad input and broken backends")
struct BadInputTests {
    /// A backend config file in the sandbox: the postfeed preset under a fixed identity, so
    /// state saved through one file is restored through another naming the same identity.
    private func backendFile(
        _ sandbox: Sandbox, name: String, server: RunningFixtureServer, postsPath: String = "/api/posts"
    ) throws -> String {
        let file = sandbox.directory.appendingPathComponent(name)
        let json = """
            {
              "preset": "postfeed",
              "identity": "e2e fixture backend",
              "baseURL": "\(server.baseURL.absoluteString)",
              "postsPath": "\(postsPath)"
            }
            """
        try Data(json.utf8).write(to: file)
        return file.path
    }

    /// Saves infinite and paged state through the config file `good.json`.
    /// Waits until the server has seen no new request for 300 ms (at most 5 s).
    private func settle(_ server: RunningFixtureServer) async {
        var last = server.totalRequestCount
        for _ in 0..<50 {
            try? await Task.sleep(for: .milliseconds(300))
            let now = server.totalRequestCount
            if now == last { return }
            last = now
        }
    }

    private func warm(_ sandbox: Sandbox, _ server: RunningFixtureServer) async throws -> String {
        let good = try backendFile(sandbox, name: "good.json", server: server)
        let list = try await sandbox.run(["list", "--backend", good, "--pages", "2"])
        try #require(list.succeeded, "\(list)")
        let page = try await sandbox.run(["page", "2", "--backend", good])
        try #require(page.succeeded, "\(page)")
        try #require(sandbox.stateSnapshot().count == 2)
        return good
    }

    @Test(
        "bad flags fail with a one-line error naming the flag, before anything is touched",
        arguments: [
            (["list", "--mode", "sideways"], "--mode 'sideways'"),
            (["list", "--page-size", "0"], "--page-size 0"),
            (["page", "--page-size", "101"], "--page-size 101"),
            (["list", "--base-url", "ftp://x"], "--base-url 'ftp://x'"),
            (["list", "--pages", "0"], "--pages 0"),
            (["list", "--sort", "random"], "--sort 'random'"),
            (["page", "--api", "graphql"], "--api 'graphql'"),
            (["lsit", "--pages", "2"], "'lsit' is not a postfeed command"),
        ])
    func usageErrors(flags: [String], named: String) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            _ = try await warm(sandbox, server)
            let before = sandbox.snapshot()
            // A prefetch the warm-up's last run sent as it exited may still be on its way.
            await settle(server)
            server.resetRequestCounts()

            // When: no --base-url; validation must stop the run before a backend is chosen
            let run = try await sandbox.run(flags)

            // Then
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains(named) == true, "\(run)")
            #expect(run.standardOutput.isEmpty, "\(run)")
            #expect(server.totalRequestCount == 0)
            expectUnchanged(before: before, after: sandbox.snapshot())
        }
    }

    @Test("an unknown --api preset is named, with the presets to use")
    func unknownPreset() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            _ = try await warm(sandbox, server)
            let before = sandbox.snapshot()

            // When
            let run = try await sandbox.run(["list", "--api", "graphql"], against: server)

            // Then: a usage error (exit 64, as for every bad flag; usageErrors checks that
            // nothing is fetched)
            #expect(run.status == 64, "\(run)")
            for name in ["--api 'graphql'", "json-server", "postfeed-cursor"] {
                #expect(run.errorMessage?.contains(name) == true, "\(run)")
            }
            expectUnchanged(before: before, after: sandbox.snapshot())
        }
    }

    @Test("an unreachable backend fails naming its URL")
    func unreachableBackend() async throws {
        let sandbox = try Sandbox()

        // When: nothing listens on port 1
        let run = try await sandbox.run(["list", "--base-url", "http://127.0.0.1:1"])

        // Then
        expectOneLineError(run, naming: ["http://127.0.0.1:1/api/posts"])
        #expect(run.standardOutput.isEmpty, "\(run)")
        #expect(sandbox.regularFiles(under: sandbox.stateDirectory).isEmpty)
    }

    @Test("a backend that became unreachable leaves the saved place and the caches alone")
    func unreachableBackendKeepsState() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: state saved under a fixed identity
            let good = try await warm(sandbox, server)
            let before = sandbox.snapshot()

            // When: the same backend identity at an address where nothing listens, asked for
            // pages its caches lack (they are keyed by the identity, so page 3, prefetched by
            // warm, would be served from the cache as at the old address)
            let list = try await sandbox.run(["list", "--page-size", "7", "--backend", good, "--base-url", "http://127.0.0.1:1"])
            let page = try await sandbox.run(["page", "5", "--backend", good, "--base-url", "http://127.0.0.1:1"])
            // When: another backend (another identity) where nothing listens: the saved
            // state is not this run's, yet a run that fails must not set it aside
            let other = try await sandbox.run(["list", "--base-url", "http://127.0.0.1:1"])
            let otherPage = try await sandbox.run(["page", "--base-url", "http://127.0.0.1:1"])

            // Then
            for run in [list, page, other, otherPage] {
                expectOneLineError(run, naming: ["http://127.0.0.1:1/api/posts"])
            }
            expectUnchanged(before: before, after: sandbox.snapshot())
            #expect(sandbox.corruptStateFiles.isEmpty)
        }
    }

    @Test(
        "a backend answering with something other than its page JSON fails naming the URL",
        arguments: ["/test/bytes/64", "/test/headers"])
    func malformedPages(postsPath: String) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(testRoutes: true) { server in
            // Given: state saved through the good path, same identity
            _ = try await warm(sandbox, server)
            let before = sandbox.snapshot()
            let bad = try backendFile(sandbox, name: "bad.json", server: server, postsPath: postsPath)

            // When
            let list = try await sandbox.run(["list", "--backend", bad])
            let page = try await sandbox.run(["page", "4", "--backend", bad])

            // Then
            for run in [list, page] {
                expectOneLineError(run, naming: ["\(server.baseURL.absoluteString)\(postsPath)"])
                #expect(run.standardOutput.isEmpty, "\(run)")
            }
            #expect(server.requestCount(path: postsPath) > 0)
            expectUnchanged(before: before, after: sandbox.snapshot())
            #expect(sandbox.corruptStateFiles.isEmpty)
        }
    }

    @Test("a file in the way of the cache folder: plain warnings, and an error saying what to do")
    func fileInTheWayOfTheCache() async throws {
        let sandbox = try Sandbox()
        let blocker = sandbox.directory.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        try await withFixtureServer { server in
            // When
            let run = try await PostfeedProcess.run(
                ["list", "--no-images", "--cache-dir", blocker.appendingPathComponent("cache").path,
                 "--base-url", server.baseURL.absoluteString],
                in: sandbox.directory)

            // Then: the posts were shown from memory, but the place cannot be saved
            #expect(run.failed, "\(run)")
            #expect(PrintedList(run.standardOutput).ids == Array(1...20), "\(run)")
            #expect(run.errorMessage?.contains("a file is in the way of that folder") == true, "\(run)")
            // Log records read like the tool's other notes: no timestamps, no log labels
            // One warning for the one problem, not one per cache layer
            let warnings = run.errorLines.filter { $0.hasPrefix("postfeed: warning: ") }
            #expect(warnings.count == 1, "\(run)")
            let allSayInTheWay = warnings.allSatisfy { $0.contains("a file is in the way") }
            #expect(allSayInTheWay, "\(run)")
            let allPrefixed = run.errorLines.allSatisfy { $0.hasPrefix("postfeed: ") || $0.hasPrefix("Error: ") }
            #expect(allPrefixed, "\(run)")
        }
    }

    @Test("an empty feed says so: list and page 1 succeed with one line, not 'all 0 posts are loaded'")
    func emptyFeedSaysSo() async throws {
        let fixtures = try FixtureCopy()
        try Data("[]".utf8).write(to: fixtures.directory.appendingPathComponent("posts.json"))
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let sandbox = try Sandbox()
            for arguments in [["list", "--no-images"], ["page", "1", "--no-images"]] {
                let run = try await sandbox.run(arguments, against: server)
                #expect(run.succeeded, "\(arguments): \(run)")
                #expect(run.standardOutput.contains("The feed is empty"), "\(arguments): \(run)")
                #expect(!run.standardOutput.contains("0 posts"), "\(arguments): \(run)")
            }
        }
    }

    @Test("--cache-dir naming a file is a usage error before anything runs, for every command that takes it")
    func cacheDirectoryThatIsAFile() async throws {
        let sandbox = try Sandbox()
        let file = sandbox.directory.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        for arguments in [["list", "--base-url", "http://127.0.0.1:1"], ["state", "show"], ["cache", "stats"]] {
            let run = try await PostfeedProcess.run(arguments + ["--cache-dir", file.path], in: sandbox.directory)
            #expect(run.exitedNormally && run.status == 64, "\(arguments): \(run)")
            #expect(run.errorMessage?.contains("is a file, not a folder") == true, "\(arguments): \(run)")
            #expect(run.standardOutput.isEmpty, "\(arguments): \(run)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }

    @Test("a missing or broken backend config file is named")
    func badConfigFile() async throws {
        let sandbox = try Sandbox()
        let broken = sandbox.directory.appendingPathComponent("broken.json")
        try Data("{\"preset\": \"postfeed\", \"baseURL\": ".utf8).write(to: broken)
        let missing = sandbox.directory.appendingPathComponent("missing.json")

        for file in [broken, missing] {
            // When
            let run = try await sandbox.run(["list", "--backend", file.path, "--base-url", "http://127.0.0.1:1"])

            // Then
            expectOneLineError(run, naming: [file.path])
        }

        // When: a folder instead of a file
        let folder = try await sandbox.run(["list", "--backend", sandbox.directory.path, "--base-url", "http://127.0.0.1:1"])

        // Then: said plainly, without Foundation's error domain
        expectOneLineError(folder, naming: [sandbox.directory.path, "is a folder, not a file"])
        #expect(!folder.standardError.contains("NSCocoaErrorDomain"), "\(folder)")
    }
}
