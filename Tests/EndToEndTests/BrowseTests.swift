import SuiteSupport
import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed browse with piped keys")
struct BrowseTests {
    /// The header line of every frame drawn, in order.
    private func frameHeaders(_ run: PostfeedResult) -> [String] {
        run.outputLines.filter { $0.hasPrefix("PostFeed · ") }
    }

    @Test("j three times then q: four frames, the place saved three posts down")
    func scrollAndQuit() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("jjjq".utf8))

            // Then: the first frame and one per key, each a screen of 5 posts lower
            #expect(run.succeeded, "\(run)")
            let headers = frameHeaders(run)
            #expect(headers.count == 4, "\(run)")
            #expect(headers.first?.hasPrefix("PostFeed · infinite · posts 1–5 of 20 loaded") == true, "\(run)")
            #expect(headers.last?.hasPrefix("PostFeed · infinite · posts 4–8 of 20 loaded") == true, "\(run)")
            #expect(run.errorLines.last == "postfeed: place saved (infinite mode)", "\(run)")

            // Then: the anchor moved by 3
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.anchor?.index == 3)
            #expect(state.anchor?.postID == 4)

            // When: browsing again resumes there
            let again = try await sandbox.run(["browse"], against: server, standardInput: Data("q".utf8))

            // Then
            #expect(again.succeeded, "\(again)")
            #expect(frameHeaders(again).first?.hasPrefix("PostFeed · infinite · posts 4–8") == true, "\(again)")
        }
    }

    @Test("m toggles to paged mode and back, keeping the post in view")
    func toggleMode() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: 12 posts down with 10 a page, then to paged mode: page 2, post #13 on top
            let keys = String(repeating: "j", count: 12) + "mq"
            let run = try await sandbox.run(
                ["browse", "--page-size", "10"], against: server, standardInput: Data(keys.utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            let headers = frameHeaders(run)
            #expect(headers.count == 14, "\(run)")
            #expect(headers.last == "PostFeed · paged · page 2 of 25", "\(run)")
            let lastFrame = run.standardOutput.components(separatedBy: "PostFeed · paged").last ?? ""
            #expect(PrintedList(lastFrame).positions.first == 13, "\(run)")
            #expect(run.standardOutput.contains("paged mode, page 2, post #13 in view"), "\(run)")
            #expect(run.errorLines.last == "postfeed: place saved (paged mode)", "\(run)")
            let paged = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
            #expect(paged.currentPage == 2)
            #expect(paged.anchor?.postID == 13)
            #expect(paged.anchor?.index == 12)

            // When: browsing resumes in paged mode; m goes back to infinite
            let back = try await sandbox.run(
                ["browse", "--page-size", "10"], against: server, standardInput: Data("mq".utf8))

            // Then
            #expect(back.succeeded, "\(back)")
            let backHeaders = frameHeaders(back)
            #expect(backHeaders.first == "PostFeed · paged · page 2 of 25", "\(back)")
            #expect(backHeaders.last?.hasPrefix("PostFeed · infinite · posts 13–17") == true, "\(back)")
            let infinite = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(infinite.anchor?.postID == 13)
            #expect(infinite.anchor?.index == 12)
        }
    }

    @Test("end of input saves and quits like q")
    func endOfInput() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: no q, the keys just end
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data(" ".utf8))

            // Then: one screen down
            #expect(run.succeeded, "\(run)")
            #expect(frameHeaders(run).last?.hasPrefix("PostFeed · infinite · posts 6–10") == true, "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 5)
        }
    }

    /// With stdin closed, the key reader's wake pipe took descriptor 0 and browse polled
    /// its own pipe for keys until killed; a closed stdin is the end of input.
    @Test("stdin closed (<&-): browse ends as at the end of input, saving the place")
    func closedStandardInput() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let binary = try PostfeedProcess.executable().path
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "exec \"$0\" browse --base-url \"$1\" --cache-dir \"$2\" <&- >/dev/null 2>&1",
                binary, server.baseURL.absoluteString, sandbox.cacheRoot.path,
            ]
            try process.run()
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while process.isRunning, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            let ended = !process.isRunning
            if !ended { process.terminate() }
            #expect(ended, "browse with stdin closed was still running after 20 s")
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    /// browse read both state files to pick the mode and dropped what that said: with the
    /// infinite file damaged it opened paged page 3 without a word, on screen or after.
    @Test("a damaged state file is said on the status line and on stderr")
    func damagedStateFileIsSaid() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: paged at page 3, then infinite (the current mode), whose file is then damaged
            let paged = try await sandbox.run(["page", "3", "--no-images"], against: server)
            let infinite = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(paged.succeeded && infinite.succeeded, "\(paged)\n\(infinite)")
            try Data("garbage{{".utf8).write(to: sandbox.infiniteStateFile)

            // When
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("q".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            let said = "infinite-scroll-state.json is not JSON (damaged or cut short)"
            #expect(run.standardError.contains(said), "\(run.standardError)")
            #expect(run.standardOutput.contains(said), "not on the status line: \(run.standardOutput)")
            #expect(run.standardOutput.contains("page 3"), "paged mode, page 3, as saved: \(run.standardOutput)")
        }
    }

    /// A cache folder where no file can be made was said only at q ("cannot save …"), after
    /// the whole session; its warnings at the start went to stderr, under the screen.
    @Test("a place that cannot be saved is said on the first status line, not only at q")
    func unsavablePlaceIsSaidAtTheStart() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await PostfeedProcess.run(
                ["browse", "--base-url", server.baseURL.absoluteString, "--cache-dir", "/proc/postfeed-\(UUID().uuidString)"],
                in: sandbox.directory, standardInput: Data("q".utf8))
            #expect(run.standardOutput.contains("your place cannot be saved here: no file can be made in /proc"), "\(run)")
            #expect(run.failed, "q cannot save: \(run)")
        }
    }

    @Test("g reads the number from the same keys as everything else: g25⏎ puts post 25 on top")
    func goToPost() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("g25\nq".utf8))

            // Then: the prompt showed what was typed, and post 25 is on top
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.contains("go to post #: 25"), "\(run)")
            #expect(frameHeaders(run).last?.hasPrefix("PostFeed · infinite · posts 25–29") == true, "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 24)
        }
    }

    @Test("o opens the top post in full; the next key only goes back")
    func detailView() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: open, a key to go back (not a scroll), quit
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("ojq".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.contains("(any key to go back)"), "\(run)")
            #expect(!run.standardOutput.contains("\r\n"), "piped output has plain line ends: \(run)")
            #expect(frameHeaders(run).last?.hasPrefix("PostFeed · infinite · posts 1–5") == true, "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 0)
        }
    }

    @Test("Ctrl-C at the go to prompt quits and saves, rather than being typed")
    func interruptAtPrompt() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: one post down, then g, 7, Ctrl-C; typed into the prompt, the Enter and
            // the j's after it would go on to move the view
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("jg7\u{03}\njj".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.errorLines.last == "postfeed: place saved (infinite mode)", "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 1)
        }
    }
}
