import Foundation
import PostFeedServer
import Testing

@Suite("postfeed browse: search and help, keys piped")
struct BrowseSearchTests {
    private func frameHeaders(_ run: PostfeedResult) -> [String] {
        run.outputLines.filter { $0.hasPrefix("PostFeed · ") }
    }

    @Test("/ finds the loaded posts matching in title, author or body, any case; n and N step through them")
    func searchAndStep() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: the first 20 posts, of which the fixture titles 1 and 10 name sourdough
            // When: search in another case, next, next, previous
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("/SOURDOUGH\nnnNq".utf8))

            // Then: the prompt showed what was typed, and the status counted the matches
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.contains("/SOURDOUGH"), "\(run)")
            let statuses = run.outputLines.filter { $0.hasPrefix("match ") }
            #expect(statuses.count == 4, "\(run)")
            #expect(statuses.first?.hasPrefix("match 1 of ") == true, "\(run)")
            #expect(statuses.dropFirst().first?.hasPrefix("match 2 of ") == true, "\(run)")
            // N steps back to the match n had reached first
            #expect(statuses.last?.hasPrefix("match 2 of ") == true, "\(run)")

            // Then: the second match is the post on top of its frame, and it matches
            let frames = run.standardOutput.components(separatedBy: "PostFeed · infinite · posts ")
            let secondMatchFrame = frames.first { $0.contains("match 2 of ") }
            let second = try #require(secondMatchFrame, "\(run)")
            let leadingDigits = second.prefix { $0.isNumber }
            let firstPosition = try #require(Int(leadingDigits), "\(second)")
            #expect(firstPosition > 1, "\(second)")
        }
    }

    @Test("a search with no match says so and leaves the view where it was")
    func noMatch() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("j/zzqxqz\nq".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            let saysNoMatch = run.outputLines.contains { $0.hasPrefix("no match for “zzqxqz”") }
            #expect(saysNoMatch, "\(run)")
            #expect(frameHeaders(run).last?.hasPrefix("PostFeed · infinite · posts 2–6") == true, "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 1)
        }
    }

    @Test("paged mode: n is the next page until a search is made, then the next match; Esc ends the search")
    func pagedN() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: paged mode, n (next page), a search, n (a match), Esc, n (next page)
            let run = try await sandbox.run(
                ["browse", "--page-size", "10"], against: server, standardInput: Data("mn/the\nn\u{1B}nq".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            let headers = frameHeaders(run)
            #expect(headers.contains("PostFeed · paged · page 2 of 25"), "\(run)")
            #expect(run.outputLines.contains("search cleared"), "\(run)")
            #expect(headers.last == "PostFeed · paged · page 3 of 25", "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.pagedStateFile).currentPage == 3)
        }
    }

    @Test("? lists every key; the next key only closes it")
    func help() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: help, a j that only closes it, quit
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("?jq".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.contains("PostFeed · keys"), "\(run)")
            #expect(run.outputLines.contains("(any key closes the help)"), "\(run)")
            for key in ["j / ↓", "k / ↑", "space / b", "n / p", "g ", "/ ", "n / N", "m ", "o / ⏎", "r ", "? ", "q "] {
                let listsKey = run.outputLines.contains { $0.hasPrefix("  " + key) }
                #expect(listsKey, "help lists \(key): \(run)")
            }
            #expect(frameHeaders(run).last?.hasPrefix("PostFeed · infinite · posts 1–5") == true, "\(run)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 0)
        }
    }

    @Test("g 200 in infinite mode loads until post 200 and shows it on top; past the end it says where the feed ends")
    func goToLoadsUntilThePost() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: g 200, then g 9999
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("g200\ng9999\nq".utf8))

            // Then: a frame with post 200 on top (not a one-post screen after one more page)
            #expect(run.succeeded, "\(run)")
            let headers = frameHeaders(run)
            let post200OnTop = headers.contains { $0.hasPrefix("PostFeed · infinite · posts 200–204") }
            #expect(post200OnTop, "\(headers)")
            let saysLoading = run.outputLines.contains { $0.hasPrefix("loading up to post #200") }
            #expect(saysLoading, "\(run)")
            // Past the known total: said at once, nothing loaded, the reader's place kept
            let saysWhereItEnds = run.outputLines.contains { $0.contains("the feed ends at post #247; there is no post #9999") }
            #expect(saysWhereItEnds, "\(run)")
            #expect(headers.last?.hasPrefix("PostFeed · infinite · posts 200–204") == true, "\(headers)")
        }
    }
}
