import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed page")
struct PageCommandTests {
    @Test("page 3 prints posts 41–60; page alone prints the saved page again")
    func pageThreeThenCurrentPage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["page", "3"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.first == "Page 3 of 13", "\(run)")
            let printed = PrintedList(run.standardOutput)
            #expect(printed.positions == Array(41...60), "\(run)")
            #expect(printed.ids == Array(41...60), "\(run)")
            let imagelessOnPage3 = FixtureFacts.postsWithoutImage.filter { (41...60).contains($0) }.count
            #expect(printed.imageLines.count == 20 - imagelessOnPage3)
            let state = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
            #expect(state.mode == "paged")
            #expect(state.currentPage == 3)
            #expect(state.backendIdentity == backendIdentity(of: server))
            #expect(state.anchor?.postID == 41)
            // A jump is one request: pages 1 and 2 are not walked through.
            let walked = server.recordedRequests.filter {
                $0.path == "/api/posts" && ($0.query?.contains("page=1&") == true || $0.query?.contains("page=2&") == true)
            }
            #expect(walked.isEmpty, "\(walked.map { $0.query ?? "" })")

            // When: no page given
            let again = try await sandbox.run(["page", "--no-images"], against: server)

            // Then: the saved page
            #expect(again.succeeded, "\(again)")
            #expect(again.outputLines.first == "Page 3 of 13", "\(again)")
            #expect(PrintedList(again.standardOutput).ids == Array(41...60), "\(again)")
        }
    }

    @Test("page --json names the page and the positions")
    func json() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["page", "13", "--json"], against: server)

            // Then: the last page holds 7 posts
            #expect(run.succeeded, "\(run)")
            let output = try ListJSON.decode(run.standardOutput, from: "page 13 --json")
            #expect(output.mode == "paged")
            #expect(output.page == 13)
            #expect(output.totalPages == 13)
            #expect(output.endReached)
            #expect(output.posts.map(\.position) == Array(241...247))
            #expect(output.posts.map(\.post.id) == Array(241...247))
        }
    }

    @Test("page 99 fails naming the page and the valid range, and changes nothing on disk")
    func pastTheEnd() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: a saved page and warm caches
            let warm = try await sandbox.run(["page", "3"], against: server)
            try #require(warm.succeeded, "\(warm)")
            let before = sandbox.snapshot()
            try #require(before.keys.contains("State/pagination-state.json"))

            // When
            let run = try await sandbox.run(["page", "99"], against: server)

            // Then: a one-line error naming page 99 and 1…13
            expectOneLineError(run, naming: ["page 99", "1…13"])
            #expect(run.standardOutput.isEmpty, "\(run)")
            expectUnchanged(before: before, after: sandbox.snapshot())
        }
    }

    @Test("--previous on the first page and --next on the last say so, and change nothing")
    func pastEitherEnd() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            for (start, flag, words) in [("1", "--previous", "page 1 is the first page"), ("13", "--next", "page 13 is the last page")] {
                // Given
                let page = try await sandbox.run(["page", start, "--no-images"], against: server)
                try #require(page.succeeded, "\(page)")
                let before = try Data(contentsOf: sandbox.pagedStateFile)

                // When
                let run = try await sandbox.run(["page", flag, "--no-images"], against: server)

                // Then
                expectOneLineError(run, naming: [words])
                #expect(try Data(contentsOf: sandbox.pagedStateFile) == before)
            }
        }
    }

    @Test("page 0 is a usage error")
    func pageZero() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["page", "0"], against: server)

            // Then: rejected before anything is fetched
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains("page 0") == true, "\(run)")
            // One line, then where help is (not the whole synopsis)
            #expect(run.status == 64, "\(run)")
            #expect(run.errorLines.count == 2 && run.errorLines.last == "See 'postfeed page --help' for more information.", "\(run)")
            #expect(server.totalRequestCount == 0)
            #expect(!FileManager.default.fileExists(atPath: sandbox.pagedStateFile.path))
        }
    }
}

/// State files are byte-identical; every cache file that existed is still there with the
/// same bytes. A failed run may have cached pages it fetched on the way (so the page
/// cache's key index, an entry listing them, may grow), but it never loses or damages one.
func expectUnchanged(
    before: [String: Data], after: [String: Data], sourceLocation: SourceLocation = #_sourceLocation
) {
    let stateBefore = before.filter { $0.key.hasPrefix("State/") }
    let stateAfter = after.filter { $0.key.hasPrefix("State/") }
    #expect(stateBefore == stateAfter, "State/ changed: \(stateBefore.keys.sorted()) → \(stateAfter.keys.sorted())", sourceLocation: sourceLocation)
    let indexMarker = Data("postfeed.page-index".utf8)
    for (path, data) in before where !path.hasPrefix("State/") {
        if data.range(of: indexMarker) != nil {
            #expect(after[path] != nil, "\(path) was removed", sourceLocation: sourceLocation)
        } else {
            #expect(after[path] == data, "\(path) was changed or removed", sourceLocation: sourceLocation)
        }
    }
}

/// The run failed with exactly one `Error: …` line on stderr (besides `postfeed: …` notices),
/// and that line contains every string of `naming`.
func expectOneLineError(
    _ run: PostfeedResult, naming: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.failed, "\(run)", sourceLocation: sourceLocation)
    let errors = run.errorLines.filter { $0.hasPrefix("Error: ") }
    // A usage error (exit 64) may add one line saying where help is.
    let others = run.errorLines.filter { !$0.hasPrefix("Error: ") && !$0.hasPrefix("postfeed: ") && !$0.hasPrefix("See 'postfeed") }
    #expect(errors.count == 1 && others.isEmpty, "\(run)", sourceLocation: sourceLocation)
    for text in naming {
        #expect(errors.first?.contains(text) == true, "the error does not name \(text): \(run)", sourceLocation: sourceLocation)
    }
}
