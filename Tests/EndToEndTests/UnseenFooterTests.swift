import Foundation
import PostFeedServer
import Testing

/// Issue 29, item 8 and its wording: what `list` says at the end of what it printed.
@Suite("list's last line: everything seen, counts under --unseen, one post")
struct UnseenFooterTests {
    @Test("list --restart --unseen when every post was seen says so, and how to read them again")
    func everythingSeen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given every post shown once (13 pages of 20)
            let all = try await sandbox.run(["list", "--pages", "13", "--no-images"], against: server)
            try #require(all.succeeded, "\(all)")

            // When only unseen posts are asked for, from the top
            let unseen = try await sandbox.run(["list", "--restart", "--unseen", "--no-images"], against: server)

            // Then it does not call the feed empty: all 247 were seen, and it says how to see them again
            #expect(unseen.succeeded, "\(unseen)")
            #expect(!unseen.standardOutput.contains("The feed is empty"), "\(unseen)")
            #expect(
                unseen.standardOutput.contains(
                    "All \(FixtureFacts.postCount) posts have been seen; 'postfeed list --restart' without --unseen shows them again."),
                "\(unseen)")
        }
    }

    @Test("under --unseen the count is of the backend's posts loaded, run after run")
    func unseenCountHasOneMeaning() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given posts 1–40 seen
            let seen = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(seen.succeeded, "\(seen)")

            // When unseen posts are read from the top, twice
            let first = try await sandbox.run(["list", "--restart", "--unseen", "--no-images"], against: server)
            let second = try await sandbox.run(["list", "--unseen", "--no-images"], against: server)

            // Then each prints the next unseen posts, and its count is how far into the
            // backend's list the loaded posts reach: the last post printed
            #expect(PrintedList(first.standardOutput).positions == Array(41...60), "\(first)")
            #expect(first.standardOutput.contains("— 60 of \(FixtureFacts.postCount) posts loaded"), "\(first)")
            #expect(PrintedList(second.standardOutput).positions == Array(61...80), "\(second)")
            #expect(second.standardOutput.contains("— 80 of \(FixtureFacts.postCount) posts loaded"), "\(second)")
        }
    }

    @Test("a feed of one post ends '(1 post)', not '(1 posts)'")
    func onePost() async throws {
        let sandbox = try Sandbox()
        let body = Data(#"[{"id":1,"title":"the only post","body":"b"}]"#.utf8)
        try await CannedHTTPServer.withRunning(body: body, contentType: "application/json") { server in
            let run = try await sandbox.run(["list", "--base-url", server.baseURL, "--api", "json-server", "--no-images"])
            #expect(run.succeeded, "\(run)")
            #expect(run.standardOutput.contains("— end of the feed (1 post) —"), "\(run)")
            #expect(!run.standardOutput.contains("(1 posts)"), "\(run)")
        }
    }
}
