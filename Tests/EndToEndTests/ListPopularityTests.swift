import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// `list --sort popularity`: the whole feed most popular first, through the built binary.
@Suite("postfeed list --sort popularity")
struct ListPopularityTests {
    /// The fixture feed in the popularity order, computed here from `Fixtures/posts.json`
    /// (most popular first, ties in the backend's order): `(position, id)`, 1-based positions.
    private func expectedOrder() throws -> [(position: Int, id: PostID, popularity: Double)] {
        let file = FixtureLocator.fixturesDirectory().appendingPathComponent("posts.json")
        let posts = try JSONDecoder().decode([Post].self, from: Data(contentsOf: file))
        #expect(posts.count == FixtureFacts.postCount)
        return posts.enumerated()
            .map { (offset: Int, post: Post) -> (position: Int, id: PostID, popularity: Double) in
                (position: offset + 1, id: post.id, popularity: post.popularity ?? -.infinity)
            }
            .sorted { $0.popularity != $1.popularity ? $0.popularity > $1.popularity : $0.position < $1.position }
    }

    @Test("the first page holds the most popular posts of the whole feed, descending, numbered by backend position")
    func firstPageIsTheWholeFeedsMostPopular() async throws {
        let sandbox = try Sandbox()
        let expected = try expectedOrder()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)
            #expect(run.succeeded, "\(run)")
            let printed = PrintedList(run.standardOutput)
            // The 20 most popular of all 247, not page 1's 20 reordered.
            #expect(printed.ids == expected.prefix(20).map(\.id), "\(run)")
            #expect(printed.positions == expected.prefix(20).map(\.position), "\(run)")
            let beyondPage1 = printed.ids.contains { ($0.integerValue ?? 0) > 20 }
            #expect(beyondPage1, "posts from beyond page 1 lead: \(run)")
            #expect(Set(printed.ids).count == printed.ids.count)
            let popularity = printed.ids.compactMap { id in expected.first { $0.id == id }?.popularity }
            #expect(popularity == popularity.sorted(by: >), "descending: \(popularity)")
            // The catalog was loaded: every page was asked for.
            #expect(server.requestCount(path: "/api/posts") >= FixtureFacts.pageCount, "\(server.requestCountsByPath)")
            #expect(run.outputLines.first?.hasPrefix("Most popular first: 1–20 of 247") == true, "\(run)")
            #expect(run.outputLines.last?.contains("20 of 247 posts by popularity; 'postfeed list --sort popularity' continues") == true, "\(run)")
        }
    }

    @Test("the next run continues down the order without repeating; the reader's place does not move")
    func continues() async throws {
        let sandbox = try Sandbox()
        let expected = try expectedOrder()
        try await withFixtureServer { server in
            // Given: the reader's place in the backend's order is after page 2
            let plain = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(plain.succeeded, "\(plain)")
            let placeBefore = try Data(contentsOf: sandbox.infiniteStateFile)

            // When
            let first = try await sandbox.run(["list", "--sort", "popularity", "--pages", "2", "--no-images"], against: server)
            let second = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)

            // Then: ranks 1–40, then 41–60, no post twice
            #expect(first.succeeded && second.succeeded, "\(first)\n\(second)")
            let firstIDs = PrintedList(first.standardOutput).ids
            let secondIDs = PrintedList(second.standardOutput).ids
            #expect(firstIDs == expected.prefix(40).map(\.id), "\(first)")
            #expect(secondIDs == expected[40..<60].map(\.id), "\(second)")
            #expect(Set(firstIDs).isDisjoint(with: secondIDs))
            #expect(second.outputLines.first?.hasPrefix("Most popular first: 41–60 of 247") == true, "\(second)")

            // Then: the place in the backend's order is untouched, and list continues there
            #expect(try Data(contentsOf: sandbox.infiniteStateFile) == placeBefore)
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).positions == Array(41...60), "\(next)")
        }
    }

    @Test("--restart starts the order over; the end of the order says so")
    func restartAndEnd() async throws {
        let sandbox = try Sandbox()
        let expected = try expectedOrder()
        try await withFixtureServer { server in
            let all = try await sandbox.run(["list", "--sort", "popularity", "--pages", "13", "--no-images"], against: server)
            #expect(all.succeeded, "\(all)")
            #expect(PrintedList(all.standardOutput).ids == expected.map(\.id), "\(all)")
            #expect(all.outputLines.last?.contains("end of the popularity order (247 posts)") == true, "\(all)")

            let after = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)
            #expect(after.succeeded, "\(after)")
            #expect(PrintedList(after.standardOutput).ids.isEmpty)
            #expect(after.standardOutput.contains("All 247 posts were printed by popularity"), "\(after)")

            let again = try await sandbox.run(["list", "--sort", "popularity", "--restart", "--no-images"], against: server)
            #expect(PrintedList(again.standardOutput).ids == expected.prefix(20).map(\.id), "\(again)")
        }
    }

    @Test("--json gives the order, the first rank, and backend positions")
    func json() async throws {
        let sandbox = try Sandbox()
        let expected = try expectedOrder()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["list", "--sort", "popularity", "--json", "--no-images"], against: server)
            #expect(run.succeeded, "\(run)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(object["order"] as? String == "popularity")
            #expect(object["firstRank"] as? Int == 1)
            let posts = try #require(object["posts"] as? [[String: Any]])
            let positions = posts.compactMap { $0["position"] as? Int }
            #expect(positions == expected.prefix(20).map(\.position))
        }
    }

    @Test("a damaged order file is set aside with one line, and the order starts from the top")
    func damagedFile() async throws {
        let sandbox = try Sandbox()
        let expected = try expectedOrder()
        try await withFixtureServer { server in
            try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
            try Data("{not json".utf8).write(to: sandbox.stateDirectory.appendingPathComponent("popularity-order-state.json"))
            let run = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(PrintedList(run.standardOutput).ids == expected.prefix(20).map(\.id), "\(run)")
            #expect(run.standardError.contains("popularity-order-state.json is not a readable popularity order"), "\(run)")
            let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory.path)
            let setAside = names.contains { $0.hasPrefix("popularity-order-state.json.corrupt-") }
            #expect(setAside, "\(names)")
        }
    }

    @Test("--sort popularity with --mode paged is a usage error")
    func notWithPaged() async throws {
        let sandbox = try Sandbox()
        let run = try await sandbox.run(["list", "--sort", "popularity", "--mode", "paged"])
        #expect(run.failed, "\(run)")
        #expect(run.standardError.contains("does not combine with --mode paged"), "\(run)")
    }
}
