import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// The reader's place survives mode switches, two processes, bad or stale state and
/// credentials in the base URL (issue "The reader's place survives everything").
@Suite("the reader's place")
struct ReaderPlaceTests {
    @Test("a mode round trip keeps the infinite feed's progress: list continues after the 60 loaded posts")
    func modeRoundTripKeepsProgress() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: three pages loaded in infinite mode
            let first = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")

            // When: to paged and back
            let toPaged = try await sandbox.run(["mode", "paged"], against: server)
            #expect(toPaged.succeeded, "\(toPaged)")
            let back = try await sandbox.run(["mode", "infinite"], against: server)
            #expect(back.succeeded, "\(back)")

            // Then: the 60 posts are still loaded, and list continues at post 61
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...60))
            #expect(state.anchor?.postID == 41, "the place moved by the round trip: \(String(describing: state.anchor))")
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).positions == Array(61...80), "\(next)")
        }
    }

    @Test("list leaves the reader at the top of the last page printed, and mode paged opens that page")
    func listPlaceIsTheLastPagePrinted() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.anchor?.postID == 41 && state.anchor?.index == 40, "\(String(describing: state.anchor))")

            // When
            let toPaged = try await sandbox.run(["mode", "paged", "--json"], against: server)

            // Then: page 3, post #41 in view
            #expect(toPaged.succeeded, "\(toPaged)")
            let switched = try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json")
            #expect(switched.page == 3)
            #expect(switched.anchorPosition == 41)

            // And the same rule for --json runs
            let json = try await sandbox.run(["list", "--mode", "infinite", "--pages", "2", "--json", "--no-images", "--cache-dir", sandbox.directory.appendingPathComponent("other").path], against: server)
            #expect(json.succeeded, "\(json)")
        }
    }

    @Test("list --sort popularity does not move the place: mode paged and list continue from the backend-order place")
    func popularityOrderLeavesThePlace() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: the place after three pages (post #41 in view)
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")

            // When: the whole feed in popularity order, twice (it loads every page)
            for _ in 0..<2 {
                let sorted = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)
                #expect(sorted.succeeded, "\(sorted)")
            }

            // Then: the place and the loaded posts are as list left them
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...60))
            #expect(state.anchor?.postID == 41 && state.anchor?.index == 40, "\(String(describing: state.anchor))")
            let toPaged = try await sandbox.run(["mode", "paged", "--json"], against: server)
            #expect(try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json").page == 3, "\(toPaged)")
            let back = try await sandbox.run(["mode", "infinite"], against: server)
            #expect(back.succeeded, "\(back)")
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).positions == Array(61...80), "\(next)")
        }
    }

    @Test("a browse left open and a list in another shell: quitting browse keeps the list's progress")
    func twoProcessesKeepBothProgress() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: browse open (page 1 loaded), one post down
            let keys = Pipe()
            let browse = try PostfeedProcess.start(
                ["browse", "--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory, inputPipe: keys)
            let opened = await browse.waitForOutputLine { $0.contains("PostFeed · infinite") }
            try #require(opened != nil, "browse did not draw its first screen")
            keys.fileHandleForWriting.write(Data("j".utf8))

            // When: another shell reads three pages, then browse quits
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")
            keys.fileHandleForWriting.write(Data("q".utf8))
            let quit = await browse.waitForExit()
            #expect(quit.succeeded, "\(quit)")

            // Then: the list's 60 posts are kept, with browse's place (post #2)
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Array(1...60), "the list's progress was lost")
            #expect(state.anchor?.postID == 2, "\(String(describing: state.anchor))")
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).positions == Array(61...80), "\(next)")
        }
    }

    @Test(
        "a huge or impossible anchor index never traps: the state is set aside with the reason",
        arguments: [Int.max, 1_000_000])
    func hugeAnchorIndex(index: Int) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: a state whose anchor index is far outside the 60 loaded posts
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")
            try Self.edit(sandbox.infiniteStateFile) { $0["anchor"] = ["postID": 41, "index": index] }

            // When / Then: no command traps; state show says why; mode paged does not jump
            let show = try await sandbox.run(["state", "show"])
            #expect(show.exitedNormally && show.status == 0, "\(show)")
            #expect(show.standardError.contains("outside the list"), "\(show)")

            let toPaged = try await sandbox.run(["mode", "paged", "--json"], against: server)
            #expect(toPaged.succeeded, "\(toPaged)")
            let switched = try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json")
            #expect(switched.page == 1 && switched.startedFresh, "\(toPaged)")
            #expect(toPaged.standardError.contains("anchor index \(index) is outside the list"), "\(toPaged)")

            let toInfinite = try await sandbox.run(["mode", "infinite"], against: server)
            #expect(toInfinite.exitedNormally && toInfinite.status == 0, "\(toInfinite)")
            let again = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(again.succeeded, "\(again)")
            #expect(!sandbox.corruptStateFiles.isEmpty, "the bad file was not kept aside")
        }
    }

    @Test("numbers typed or passed never trap: page, browse's go-to in both modes, --rows")
    func hugeNumbersFromTheReader() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let page = try await sandbox.run(["page", "9223372036854775807", "--no-images"], against: server)
            #expect(page.failed, "\(page)")
            #expect(page.standardError.contains("past the end"), "\(page)")

            let infinite = try await sandbox.run(
                ["browse"], against: server, standardInput: Data("g9223372036854775807\nq".utf8))
            #expect(infinite.succeeded, "\(infinite)")
            let paged = try await sandbox.run(
                ["browse"], against: server, standardInput: Data("mg9223372036854775807\ng-9223372036854775808\nq".utf8))
            #expect(paged.succeeded, "\(paged)")

            let clamped = try await sandbox.run(["page", "9223372036854775807", "--no-images", "--api", "json-server-v1"])
            #expect(clamped.failed && clamped.standardError.contains("past the end"), "\(clamped)")
            let rows = try await sandbox.run(["browse", "--rows", "9223372036854775807"], against: server)
            #expect(rows.exitedNormally && rows.status == 64, "\(rows)")
        }
    }

    @Test("a saved page past the end of a shrunken list opens the last page with a notice, in every command")
    func savedPagePastTheEnd() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: a paged state at page 40 of a 13-page list
            let page = try await sandbox.run(["page", "3", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")
            try Self.edit(sandbox.pagedStateFile) {
                $0["currentPage"] = 40
                $0["currentPageKey"] = ["number": 40]
                $0["anchor"] = ["postID": 781, "index": 780]
            }

            // When / Then
            let again = try await sandbox.run(["page", "--no-images"], against: server)
            #expect(again.succeeded, "\(again)")
            #expect(again.outputLines.first == "Page 13 of 13", "\(again)")
            #expect(again.standardError.contains("past the end"), "\(again)")

            try Self.edit(sandbox.pagedStateFile) {
                $0["currentPage"] = 40
                $0["currentPageKey"] = ["number": 40]
                $0["anchor"] = ["postID": 781, "index": 780]
            }
            let previous = try await sandbox.run(["page", "--previous", "--no-images"], against: server)
            #expect(previous.succeeded, "\(previous)")
            #expect(previous.outputLines.first == "Page 12 of 13", "\(previous)")

            try Self.edit(sandbox.pagedStateFile) {
                $0["currentPage"] = 40
                $0["currentPageKey"] = ["number": 40]
                $0["anchor"] = ["postID": 781, "index": 780]
            }
            let browse = try await sandbox.run(["browse"], against: server, standardInput: Data("q".utf8))
            #expect(browse.succeeded, "\(browse)")
            #expect(browse.standardOutput.contains("page 13 of 13"), "\(browse)")
        }
    }

    @Test("--unseen keeps the backend's post numbers, so mode paged lands on the page that holds the post")
    func unseenNumbering() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: page 1 seen, then a restart showing unseen posts only
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let unseen = try await sandbox.run(["list", "--restart", "--unseen", "--no-images"], against: server)
            try #require(unseen.succeeded, "\(unseen)")
            #expect(PrintedList(unseen.standardOutput).positions == Array(21...40), "\(unseen)")
            #expect(PrintedList(unseen.standardOutput).ids == Array(21...40), "\(unseen)")

            // When
            let toPaged = try await sandbox.run(["mode", "paged", "--json"], against: server)

            // Then: page 2, post #21 (id 21)
            #expect(toPaged.succeeded, "\(toPaged)")
            let switched = try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json")
            #expect(switched.page == 2 && switched.anchorPostID == 21 && switched.anchorPosition == 21, "\(toPaged)")
        }
    }

    @Test("credentials in the base URL are never stored or printed")
    func credentialsStayOut() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: a base URL with user info (the fixture server ignores it)
            let port = try #require(server.baseURL.port)
            let withCredentials = "http://reader:s3cret@127.0.0.1:\(port)"
            let list = try await sandbox.run(["list", "--no-images", "--base-url", withCredentials])
            #expect(list.succeeded, "\(list)")

            // Then: the state and every message are without them
            let state = try String(contentsOf: sandbox.infiniteStateFile, encoding: .utf8)
            #expect(!state.contains("s3cret") && !state.contains("reader@"), "\(state)")
            let show = try await sandbox.run(["state", "show"])
            #expect(!show.standardOutput.contains("s3cret"), "\(show)")
            let json = try await sandbox.run(["list", "--json", "--base-url", withCredentials])
            #expect(json.succeeded && !json.standardOutput.contains("s3cret"), "image URLs printed with credentials: \(json)")
            let dead = try await sandbox.run(["page", "20", "--no-images", "--base-url", "http://reader:s3cret@127.0.0.1:1"])
            #expect(dead.failed, "\(dead)")
            #expect(!dead.standardError.contains("s3cret") && !dead.standardOutput.contains("s3cret"), "\(dead)")
            #expect(dead.standardError.contains("127.0.0.1:1"), "the message should still name the URL: \(dead)")
        }
    }

    @Test("Ctrl-C during list --restart before its first page keeps the saved place")
    func interruptedRestartKeepsThePlace() async throws {
        let sandbox = try Sandbox()
        // Pages expire at once, so the restart must wait for the (slow) server
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .seconds(2)), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let before = sandbox.stateSnapshot()
            let child = try PostfeedProcess.start(
                ["list", "--restart", "--no-images", "--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            try await Task.sleep(for: .milliseconds(800))
            child.send(SIGINT)
            let run = await child.waitForExit()
            #expect(run.exitedNormally && run.status == 130, "\(run)")
            #expect(sandbox.stateSnapshot() == before, "the interrupted restart replaced the saved place")
        }
    }

    @Test("--cache-dir \"\" is a usage error", arguments: [["list"], ["state", "show"], ["cache", "stats"]])
    func emptyCacheDirectory(command: [String]) async throws {
        let sandbox = try Sandbox()
        let run = try await PostfeedProcess.run(command + ["--cache-dir", ""], in: sandbox.directory)
        #expect(run.exitedNormally && run.status == 64, "\(run)")
        #expect(run.standardError.contains("--cache-dir is empty"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent(".cache/postfeed").path))
    }

    // MARK: Helpers

    /// Rewrites a state file's JSON object.
    static func edit(_ file: URL, _ change: (inout [String: Any]) -> Void) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
    }
}
