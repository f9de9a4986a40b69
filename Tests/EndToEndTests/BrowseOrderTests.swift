import Foundation
import PostFeedServer
import Testing

@Suite("postfeed browse: s, u and the window of pages, keys piped")
struct BrowseOrderTests {
    /// The header line of every frame drawn, in order.
    private func frameHeaders(_ run: PostfeedResult) -> [String] {
        run.outputLines.filter { $0.hasPrefix("PostFeed · ") }
    }

    /// The last frame's text.
    private func lastFrame(_ run: PostfeedResult) -> String {
        run.standardOutput.components(separatedBy: "PostFeed · ").last ?? ""
    }

    @Test("s puts the most popular loaded posts first, keeping their numbers; s again restores the feed's order")
    func popularity() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let sorted = try await sandbox.run(["browse", "--rows", "10"], against: server, standardInput: Data("sbq".utf8))

            // Then: the 20 loaded posts, most popular first (10 on screen: no page more)
            #expect(sorted.succeeded, "\(sorted)")
            let headers = frameHeaders(sorted)
            #expect(headers.last?.hasPrefix("PostFeed · infinite · most popular first · 1–10 of 20 loaded") == true, "\(headers)")
            let frame = lastFrame(sorted)
            let popularity = frame.components(separatedBy: "\n").compactMap { line -> Double? in
                guard let range = line.range(of: "popularity ") else { return nil }
                return Double(line[range.upperBound...].prefix(4))
            }
            #expect(popularity.count == 10, "\(frame)")
            #expect(popularity == popularity.sorted(by: >), "\(popularity)")
            // Numbers are the backend's: not 1, 2, 3 in order
            #expect(PrintedList(frame).positions != Array(1...10), "\(frame)")
            #expect(Set(PrintedList(frame).positions).isSubset(of: Set(1...20)), "\(frame)")

            // When: s then s again
            let back = try await sandbox.run(["browse", "--rows", "10"], against: server, standardInput: Data("sbsg1\nq".utf8))
            #expect(back.succeeded, "\(back)")
            #expect(PrintedList(lastFrame(back)).positions == Array(1...10), "\(back)")
        }
    }

    @Test("u hides the posts shown in earlier runs and keeps this run's; u again shows them")
    func unseenOnly() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: an earlier run showed posts 1–20 (three screens down; only posts shown
            // count as seen, not the ones loaded), leaving post #16 on top
            let first = try await sandbox.run(["browse"], against: server, standardInput: Data("   q".utf8))
            try #require(first.succeeded, "\(first)")

            // When: u, then one screen down
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("u q".utf8))

            // Then: posts 16–20 (on screen in this run) stay, 1–15 are hidden, 21… follow
            #expect(run.succeeded, "\(run)")
            let headers = frameHeaders(run)
            let showsUnseenOnly = headers.contains { $0.contains("unseen only · 1–5 of ") }
            #expect(showsUnseenOnly, "\(headers)")
            #expect(PrintedList(lastFrame(run)).positions == Array(21...25), "\(run)")

            // When: u again (this run resumes at post #21, where the last one left off)
            let all = try await sandbox.run(["browse"], against: server, standardInput: Data("uu q".utf8))
            #expect(all.succeeded, "\(all)")
            #expect(PrintedList(lastFrame(all)).positions == Array(26...30), "\(all)")
        }
    }

    @Test("pages scrolled out of the 10-page window come back from the page cache, post for post")
    func scrollingBackOverEvictedPages() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: 5 posts a page, so post 200 is 40 pages on; then back to the top
            let run = try await sandbox.run(
                ["browse", "--page-size", "5"], against: server, standardInput: Data("g200\ng1\njg100\nq".utf8))

            // Then
            #expect(run.succeeded, "\(run)")
            // The list frames, not those of the prompt being typed
            let frames = run.standardOutput.components(separatedBy: "PostFeed · ").dropFirst().filter { !$0.contains("go to post #:") }
            let tops = frames.compactMap { PrintedList(String($0)).positions.first }
            #expect(tops.suffix(4) == [200, 1, 2, 100], "\(tops)")
            let gapped = frames.map { PrintedList(String($0)).positions }.filter { positions in
                positions != Array((positions.first ?? 0)..<((positions.first ?? 0) + positions.count))
            }
            #expect(gapped.isEmpty, "frames whose positions are not consecutive: \(gapped)")
            // The posts are the same as a fresh read of them
            let list = try await sandbox.run(["page", "1", "--page-size", "5", "--no-images"], against: server)
            let firstFrame = frames.count >= 3 ? String(frames[frames.count - 3]) : ""
            #expect(firstFrame.contains(list.outputLines.dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? "?"), "\(firstFrame)\n\(list)")
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 99)
        }
    }
}
