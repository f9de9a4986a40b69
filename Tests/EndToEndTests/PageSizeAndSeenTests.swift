import Foundation
import PostFeedServer
import Testing

/// `list` after another `--page-size` skips no post, and only posts shown become seen
/// (browse loads ahead; `--unseen` must not hide what it never drew).
@Suite("page-size changes and seen posts through the binary")
struct PageSizeAndSeenTests {
    @Test("list --page-size 10 --pages 3, then list --page-size 25: posts 31–75, none skipped")
    func pageSizeChangeSkipsNothing() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: posts 1–30 at 10 a page
            let first = try await sandbox.run(["list", "--page-size", "10", "--pages", "3", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            #expect(PrintedList(first.standardOutput).positions == Array(1...30), "\(first)")

            // When: the next run at 25 a page
            let second = try await sandbox.run(["list", "--page-size", "25", "--no-images"], against: server)

            // Then: the place is kept and the next posts are 31 on
            #expect(second.succeeded, "\(second)")
            #expect(second.standardError.contains("page size changed from 10 to 25; keeping your place"), "\(second)")
            #expect(PrintedList(second.standardOutput).positions == Array(31...75), "\(second)")
            let third = try await sandbox.run(["list", "--page-size", "25", "--no-images"], against: server)
            #expect(PrintedList(third.standardOutput).positions == Array(76...100), "\(third)")
        }
    }

    @Test("browse shows posts 1–5 and quits: list --restart --unseen hides only those five")
    func browseMarksOnlyWhatItShowed() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: one screen of browse (posts 1–5 of the 20 loaded)
            let browse = try await sandbox.run(["browse"], against: server, standardInput: Data("q".utf8))
            try #require(browse.succeeded, "\(browse)")

            // When
            let unseen = try await sandbox.run(["list", "--restart", "--unseen", "--no-images"], against: server)

            // Then: posts 6–20 were never shown, so they are not hidden
            #expect(unseen.succeeded, "\(unseen)")
            #expect(PrintedList(unseen.standardOutput).positions == Array(6...20), "\(unseen)")
        }
    }
}
