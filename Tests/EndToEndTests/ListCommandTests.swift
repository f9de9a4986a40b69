import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed list")
struct ListCommandTests {
    @Test("list --pages 2 prints posts 1–40 with images, caches them and saves the place")
    func firstTwoPages() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When (with a long image wait: the default 2 s can run out on a machine busy with
            // other tests, and the bound itself is ImageWaitTests' business)
            let run = try await sandbox.run(["list", "--pages", "2", "--image-wait", "60"], against: server)

            // Then: posts 1–40 in order, each with an image line except the imageless ones
            #expect(run.succeeded, "\(run)")
            let printed = PrintedList(run.standardOutput)
            #expect(printed.positions == Array(1...40), "\(run)")
            #expect(printed.ids == Array(1...40), "\(run)")
            for entry in printed.entries {
                if FixtureFacts.postsWithoutImage.contains(entry.id?.integerValue ?? 0) {
                    #expect(entry.imageLine == nil, "post \(entry.position) has no image: \(run)")
                } else {
                    let line = try #require(entry.imageLine, "post \(entry.position) lacks an image line: \(run)")
                    #expect(line.contains("×") && line.contains(" at "), "\(line)")
                }
            }
            #expect(run.outputLines.last?.contains("40 of 247 posts loaded") == true, "\(run)")

            // Then: the images are on disk, the place is saved
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).count > 0)
            #expect(server.requestCount(pathPrefix: "/images/") > 0)
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.mode == "infinite")
            #expect(state.backendIdentity == backendIdentity(of: server))
            #expect(state.loadedPostIDs == Array(1...40))
            #expect(state.pageSize == 20)
            #expect(state.totalCount == FixtureFacts.postCount)
            // The place is the top of the last page printed (DESIGN.md, README "Where your
            // place is kept"): post #21.
            #expect(state.anchor?.postID == 21)
            #expect(state.anchor?.index == 20)
        }
    }

    @Test("--no-images fetches no image, not even in the background, in list and page")
    func noImages() async throws {
        let sandbox = try Sandbox()
        // Slow pages: background image prefetches would have time to reach the server.
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(100))) { server in
            let list = try await sandbox.run(["list", "--no-images", "--pages", "3"], against: server)
            #expect(list.succeeded, "\(list)")
            #expect(PrintedList(list.standardOutput).ids == Array(1...60), "\(list)")
            let page = try await sandbox.run(["page", "2", "--no-images"], against: server)
            #expect(page.succeeded, "\(page)")
            #expect(server.requestCount(pathPrefix: "/images/") == 0, "requests by path: \(server.requestCountsByPath)")
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).isEmpty)
        }
    }

    @Test("the next list continues after the saved place, in text and in JSON")
    func resumesFromState() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let first = try await sandbox.run(["list", "--pages", "2"], against: server)
            try #require(first.succeeded, "\(first)")

            // When
            let second = try await sandbox.run(["list"], against: server)

            // Then: posts 41–60, and the state now holds 60 posts with post 41 in view
            #expect(second.succeeded, "\(second)")
            let printed = PrintedList(second.standardOutput)
            #expect(printed.positions == Array(41...60), "\(second)")
            #expect(printed.ids == Array(41...60), "\(second)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...60))
            #expect(state.anchor?.postID == 41)
            #expect(state.anchor?.index == 40)

            // When: the next run prints JSON
            let third = try await sandbox.run(["list", "--json"], against: server)

            // Then: it parses, and positions continue at 61
            #expect(third.succeeded, "\(third)")
            let output = try ListJSON.decode(third.standardOutput, from: "list --json")
            #expect(output.mode == "infinite")
            #expect(output.posts.map(\.position) == Array(61...80))
            #expect(output.posts.map(\.post.id) == Array(61...80))
            #expect(output.loaded == 80)
            #expect(output.totalCount == FixtureFacts.postCount)
            #expect(output.endReached == false)
            let withoutImageFile = output.posts.filter { $0.image?.path == nil }.map(\.post.id)
            let onlyImagelessPosts = withoutImageFile.allSatisfy { FixtureFacts.postsWithoutImage.contains($0.integerValue ?? 0) }
            #expect(onlyImagelessPosts, "posts without an image file: \(withoutImageFile)")
        }
    }

    @Test("a run that fails part-way prints the pages it loaded, and the saved place holds just those")
    func failsPartWay() async throws {
        let sandbox = try Sandbox()
        // Given: page 1 in the page cache (page 2 too, if the prefetch finished)
        let port = try await withFixtureServer { server in
            let warm = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(warm.succeeded, "\(warm)")
            return server.port
        }
        // Given: the same backend now answers every request with 400
        var faults = FaultInjection()
        faults.failFirst = 1_000_000
        faults.failFirstFault = .status(400)
        try await withFixtureServer(port: port, faults: faults) { server in
            // When: three pages from the top; page 1 comes from the cache, page 3 cannot
            let run = try await sandbox.run(["list", "--restart", "--pages", "3", "--no-images"], against: server)

            // Then: what loaded is printed, the failure named, and the state holds exactly
            // the printed posts, so the next run continues right after them
            expectOneLineError(run, naming: ["HTTP 400", "\(server.baseURL.absoluteString)/api/posts"])
            let printed = PrintedList(run.standardOutput)
            #expect(printed.positions == Array(1...20) || printed.positions == Array(1...40), "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == printed.ids)
            // The place is the top of the last page printed: page 2 when the warm run's
            // prefetch stored it (it is stored whole or not at all), else page 1.
            #expect(state.anchor?.postID == (printed.positions.count == 40 ? 21 : 1), "\(run)")
        }
    }

    @Test("list --restart starts over from post 1")
    func restart() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")

            // When
            let again = try await sandbox.run(["list", "--restart", "--no-images"], against: server)

            // Then
            #expect(again.succeeded, "\(again)")
            #expect(PrintedList(again.standardOutput).positions == Array(1...20), "\(again)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...20))
        }
    }

    @Test("list --restart --unseen starts from the top but still hides the posts shown before")
    func restartUnseen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given posts 1–40 shown
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")

            // When
            let again = try await sandbox.run(["list", "--restart", "--unseen", "--no-images"], against: server)

            // Then: the first unseen page
            #expect(again.succeeded, "\(again)")
            #expect(PrintedList(again.standardOutput).ids == Array(41...60), "\(again)")
        }
    }

    @Test("list --mode paged prints numbered pages from the current one, as page --count does")
    func listPagedMode() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given paged mode at page 3
            let page = try await sandbox.run(["page", "3", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")

            // When
            let list = try await sandbox.run(["list", "--mode", "paged", "--pages", "2", "--no-images"], against: server)

            // Then: pages 3 and 4
            #expect(list.succeeded, "\(list)")
            #expect(list.outputLines.first?.hasPrefix("Page 3 of") == true, "\(list)")
            #expect(PrintedList(list.standardOutput).ids == Array(41...80), "\(list)")
        }
    }

    @Test("output that cannot be written fails the run and leaves the saved place where it was", arguments: [false, true])
    func unwritableOutput(json: Bool) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given posts 1–20 shown
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let before = try Data(contentsOf: sandbox.infiniteStateFile)

            // When the next pages go to a full disk
            let full = try await sandbox.run(
                ["list", "--pages", "2", "--no-images"] + (json ? ["--json"] : []), against: server, outputFile: "/dev/full")

            // Then: a clear failure (no crash), and the place still after post 20
            #expect(full.failed, "\(full)")
            #expect(full.standardError.contains("cannot write to standard output: No space left on device"), "\(full)")
            #expect(!full.standardError.contains("Fatal error"), "\(full)")
            #expect(try Data(contentsOf: sandbox.infiniteStateFile) == before)
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).ids == Array(21...40), "\(next)")
        }
    }

    /// A closed descriptor 1 was taken by the first thing postfeed opened (the concurrency
    /// runtime's eventfd: "Invalid argument"); it is now held by /dev/null read-only.
    @Test("a closed standard output (>&-) fails the run with a clear line and keeps the saved place")
    func closedStandardOutput() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let before = try Data(contentsOf: sandbox.infiniteStateFile)

            let (status, message) = try await PostfeedProcess.runThroughShell(
                "exec \"$0\" list --no-images --base-url \"$1\" --cache-dir \"$2\" >&-",
                baseURL: server.baseURL, cacheRoot: sandbox.cacheRoot)

            #expect(status == 1, "\(message)")
            #expect(message.contains("cannot write to standard output: Bad file descriptor"), "\(message)")
            #expect(try Data(contentsOf: sandbox.infiniteStateFile) == before)
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).ids == Array(21...40), "\(next)")
        }
    }

    @Test("list --restart that fails before loading anything keeps the saved place")
    func failedRestartKeepsThePlace() async throws {
        let sandbox = try Sandbox()
        // One identity for two addresses, so the dead address is "the same backend"
        let config = sandbox.directory.appendingPathComponent("backend.json")
        try await withFixtureServer { server in
            try Data("""
                {"preset": "postfeed", "identity": "e2e backend", "baseURL": "\(server.baseURL.absoluteString)"}
                """.utf8).write(to: config)
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images", "--backend", config.path])
            try #require(first.succeeded, "\(first)")
        }
        let before = sandbox.stateSnapshot()

        // When a restart cannot reach the backend (at another page size: the caches, keyed by
        // the identity, would serve page 1 of size 20 at the dead address too)
        let restart = try await sandbox.run([
            "list", "--restart", "--no-images", "--page-size", "7", "--backend", config.path, "--base-url", "http://127.0.0.1:1",
        ])

        // Then it fails and the place saved before is untouched
        #expect(!restart.succeeded, "\(restart)")
        #expect(sandbox.stateSnapshot() == before)
    }

    @Test("list reaches the end of the feed and says so")
    func endOfFeed() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: 100 posts a page, three pages hold all 247
            let run = try await sandbox.run(["list", "--page-size", "100", "--pages", "5", "--no-images"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(PrintedList(run.standardOutput).positions == Array(1...247), "\(run)")
            #expect(run.outputLines.last?.contains("end of the feed") == true, "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.endReached)

            // When: once more
            let after = try await sandbox.run(["list", "--page-size", "100", "--no-images"], against: server)

            // Then: nothing new, a hint to restart
            #expect(after.succeeded, "\(after)")
            #expect(PrintedList(after.standardOutput).entries.isEmpty, "\(after)")
            #expect(after.standardOutput.contains("--restart"), "\(after)")
        }
    }

    @Test(
        "SIGINT or SIGTERM mid-list prints the pages loaded, saves the place after them, and exits 128+signal",
        arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            // When: the first page is saved, the signal arrives
            let run = try await longList(sandbox, server: server, afterFirstSave: signal)

            // Then: every post saved as loaded was printed, and nothing more
            #expect(run.exitedNormally && run.status == 128 + signal, "\(run)")
            let printed = PrintedList(run.standardOutput).ids
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == printed, "\(run)")
            #expect(printed.count >= 20 && printed.count < FixtureFacts.postCount, "\(run)")
            #expect(printed == Array(1...max(1, printed.count)), "\(run)")
            #expect(state.anchor?.postID == 1)
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            #expect(run.standardError.contains("interrupted by \(name) after \(printed.count) new posts"), "\(run)")

            // Then: the next run continues right after the last printed post
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).ids.first == PostID(printed.count + 1), "\(next)")
        }
    }

    @Test("each page is printed before the place after it is saved: SIGKILL never skips unread posts")
    func killedMidList() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            // When: a place is saved, the process is killed without a chance to clean up
            let run = try await longList(sandbox, server: server, afterFirstSave: SIGKILL)

            // Then: every saved post had been printed (at most the page in flight is printed
            // but not yet saved), so the next run continues without skipping any
            let printed = PrintedList(run.standardOutput).ids
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(!state.loadedPostIDs.isEmpty)
            #expect(Array(printed.prefix(state.loadedPostIDs.count)) == state.loadedPostIDs, "\(run)")
            #expect(printed.count - state.loadedPostIDs.count <= 20, "\(run)")
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).ids.first == PostID(state.loadedPostIDs.count + 1), "\(next)")
        }
    }

    /// Starts `list --pages 13` (slow pages: still loading when the signal comes), sends
    /// `signal` once the first place is saved, and waits for the process to end.
    private func longList(_ sandbox: Sandbox, server: RunningFixtureServer, afterFirstSave signal: Int32) async throws -> PostfeedResult {
        let list = try PostfeedProcess.start(
            ["list", "--pages", "13", "--no-images", "--base-url", server.baseURL.absoluteString,
             "--cache-dir", sandbox.cacheRoot.path],
            in: sandbox.directory)
        let firstSaved = await waitUntil { (try? StateJSON.decode(contentsOf: sandbox.infiniteStateFile)) != nil }
        list.send(signal)
        let run = await list.waitForExit()
        try #require(firstSaved, "no state file appeared: \(run)")
        return run
    }

    @Test("a post whose image URL is empty: list and list --json say so and name no address")
    func emptyImageURL() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.setImageURL("", ofPost: 1)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            // When
            let text = try await sandbox.run(["list", "--image-wait", "60"], against: server)
            let json = try await sandbox.run(["list", "--json", "--image-wait", "60", "--restart"], against: server)

            // Then
            #expect(text.succeeded, "\(text)")
            let first = try #require(PrintedList(text.standardOutput).entries.first, "\(text)")
            #expect(first.imageLine == "image: none (the post's image URL is empty)", "\(text)")
            #expect(!text.standardOutput.contains("\(server.baseURL.absoluteString):"), "not the backend's address: \(text)")
            #expect(json.succeeded, "\(json)")
            let listed = try ListJSON.decode(json.standardOutput, from: "list --json")
            let image = try #require(listed.posts.first?.image, "\(json)")
            #expect(listed.posts.first?.post.id == 1)
            #expect(image.url == nil, "\(json)")
            #expect(image.error == "the post's image URL is empty", "\(json)")
        }
    }
}
