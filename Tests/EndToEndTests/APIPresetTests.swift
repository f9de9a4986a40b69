import Foundation
import PostFeedModels
import PostFeedServer
import SuiteSupport
import Testing

/// Issue 32, item 3: the eight API presets through the real `postfeed` binary and libcurl,
/// against the fixture server serving each API's recorded responses (`Fixtures/apis/`):
/// walked to the end in both modes, one run at a time, the place kept across runs.
@Suite("API presets end to end")
struct APIPresetTests {
    struct API: Sendable, CustomTestStringConvertible {
        var flavor: BackendFlavor
        /// Posts per page: 4 (recorded), or the server's own (Discourse's 30).
        var pageSize: Int
        var postCount: Int
        var firstID: String
        /// The API tells the end only by an empty page after the last (Mastodon's `Link`
        /// always has a next link): the walk takes one more request to find it.
        var endsOnEmptyPage = false
        var preset: String { flavor.rawValue }
        var pageCount: Int { (postCount + pageSize - 1) / pageSize }
        var testDescription: String { preset }
    }

    static let apis = [
        API(flavor: .wordpress, pageSize: 4, postCount: 10, firstID: "1200"),
        API(flavor: .mastodon, pageSize: 4, postCount: 10, firstID: "9223372036854775999", endsOnEmptyPage: true),
        API(flavor: .hackernews, pageSize: 4, postCount: 10, firstID: "44100000"),
        API(flavor: .reddit, pageSize: 4, postCount: 10, firstID: "t3_vf7lds"),
        API(flavor: .ghost, pageSize: 4, postCount: 10, firstID: "5ddc9141c35e7700383b2937"),
        API(flavor: .lemmy, pageSize: 4, postCount: 10, firstID: "88000"),
        API(flavor: .discourse, pageSize: 30, postCount: 35, firstID: "9100"),
        API(flavor: .forem, pageSize: 4, postCount: 10, firstID: "2100000"),
    ]

    /// Runs `body` with a fixture server speaking `api`'s recordings, and the base URL the
    /// preset is given (a subreddit, a Ghost key).
    private func withAPI<T>(
        _ api: API, isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> T
    ) async throws -> T {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), flavor: api.flavor)) {
            server in
            try await body(server.baseURL.absoluteString + api.flavor.recordedBaseURLSuffix)
        }
    }

    private func arguments(_ command: [String], _ api: API, baseURL: String) -> [String] {
        command + ["--api", api.preset, "--base-url", baseURL, "--page-size", String(api.pageSize), "--no-images"]
    }

    @Test("list walks the whole API one page a run, continuing where the last run stopped, then says it has ended",
          arguments: apis)
    func infiniteWalk(api: API) async throws {
        let sandbox = try Sandbox()
        try await withAPI(api) { baseURL in
            var ids: [PostID] = []
            for run in 1...api.pageCount {
                // When: one more run of list
                let list = try await sandbox.run(arguments(["list"], api, baseURL: baseURL))
                try #require(list.succeeded, "run \(run): \(list)")

                // Then: the next page, numbered on from the last run
                let printed = PrintedList(list.standardOutput)
                let expected: [Int] = Array((ids.count + 1)...min(ids.count + api.pageSize, api.postCount))
                #expect(printed.positions == expected, "run \(run): \(list)")
                #expect(!list.standardError.contains("skipped") && !list.standardError.contains("shown without"), "\(list)")
                ids += printed.ids
                if run == api.pageCount, !api.endsOnEmptyPage {
                    #expect(list.outputLines.last?.contains("end of the feed") == true, "\(list)")
                }
            }
            if api.endsOnEmptyPage {
                // The empty page after the last: nothing printed, the end said
                let empty = try await sandbox.run(arguments(["list"], api, baseURL: baseURL))
                #expect(empty.succeeded, "\(empty)")
                #expect(PrintedList(empty.standardOutput).entries.isEmpty, "\(empty)")
                #expect(empty.outputLines.last?.lowercased().contains("end of the feed") == true, "\(empty)")
            }
            #expect(ids.count == api.postCount && Set(ids).count == api.postCount, "\(ids)")
            #expect(ids.first?.text == api.firstID)
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.endReached)
            #expect(state.loadedPostIDs == ids)

            // When: once more, past the end
            let after = try await sandbox.run(arguments(["list"], api, baseURL: baseURL))

            // Then: nothing new, and how to start over
            #expect(after.succeeded, "\(after)")
            #expect(PrintedList(after.standardOutput).entries.isEmpty, "\(after)")
            #expect(after.standardOutput.contains("--restart"), "\(after)")
        }
    }

    @Test("page 1 then page --next run by run to the last page; page alone shows the saved page again", arguments: apis)
    func pagedWalk(api: API) async throws {
        let sandbox = try Sandbox()
        try await withAPI(api) { baseURL in
            // Given: page 1
            let first = try await sandbox.run(arguments(["page", "1"], api, baseURL: baseURL))
            try #require(first.succeeded, "\(first)")
            var ids = PrintedList(first.standardOutput).ids
            #expect(PrintedList(first.standardOutput).positions == [Int](1...api.pageSize), "\(first)")

            // When: --next, one run at a time, from the page the last run saved
            for number in 2...max(2, api.pageCount) where number <= api.pageCount {
                let next = try await sandbox.run(arguments(["page", "--next"], api, baseURL: baseURL))
                try #require(next.succeeded, "page \(number): \(next)")
                let printed = PrintedList(next.standardOutput)
                let start = (number - 1) * api.pageSize + 1
                let expected: [Int] = Array(start...min(start + api.pageSize - 1, api.postCount))
                #expect(printed.positions == expected, "\(next)")
                ids += printed.ids
            }

            // Then: every post once, in the API's order, and no page after the last
            #expect(ids.count == api.postCount && Set(ids).count == api.postCount, "\(ids)")
            #expect(ids.first?.text == api.firstID)
            let past = try await sandbox.run(arguments(["page", "--next"], api, baseURL: baseURL))
            expectOneLineError(
                past,
                naming: [api.endsOnEmptyPage ? "page \(api.pageCount + 1) is past the end" : "page \(api.pageCount) is the last page"])
            let again = try await sandbox.run(arguments(["page"], api, baseURL: baseURL))
            #expect(again.succeeded, "\(again)")
            #expect(PrintedList(again.standardOutput).positions.first == (api.pageCount - 1) * api.pageSize + 1, "\(again)")
        }
    }

    @Test("wordpress: page 4 of 3, asked first, meets the 400 rest_post_invalid_page_number and says it is past the end")
    func wordpressPastTheEnd() async throws {
        let sandbox = try Sandbox()
        let api = Self.apis[0]
        try await withAPI(api) { baseURL in
            let run = try await sandbox.run(arguments(["page", "4"], api, baseURL: baseURL))
            expectOneLineError(run, naming: ["page 4"])
            #expect(run.standardError.contains("past the end"), "\(run)")
            #expect(!run.standardError.contains("check the page size"), "not reported as a failed request: \(run)")
            #expect(run.standardOutput.isEmpty, "\(run)")
        }
    }

    @Test("a backend file paging Discourse by its more_topics_url (the nextURL style): both modes walk to the end")
    func nextURLBackendFile() async throws {
        let sandbox = try Sandbox()
        let api = Self.apis[6]  // discourse
        let file = sandbox.directory.appendingPathComponent("discourse-next-url.json")
        try Data(#"""
            {"preset": "discourse", "baseURL": "http://127.0.0.1:1",
             "pagination": {"style": "nextURL", "field": "topic_list.more_topics_url", "limit": null}}
            """#.utf8).write(to: file)
        try await withAPI(api) { baseURL in
            let backend = ["--backend", file.path, "--base-url", baseURL, "--no-images"]
            // Infinite: page 1 at /latest.json, page 2 at the URL the body names, then the end
            let first = try await sandbox.run(["list"] + backend)
            try #require(first.succeeded, "\(first)")
            #expect(PrintedList(first.standardOutput).positions == [Int](1...30), "\(first)")
            let second = try await sandbox.run(["list"] + backend)
            #expect(PrintedList(second.standardOutput).positions == [Int](31...35), "\(second)")
            #expect(second.outputLines.last?.contains("end of the feed") == true, "\(second)")
            let ids = PrintedList(first.standardOutput).ids + PrintedList(second.standardOutput).ids
            #expect(Set(ids).count == 35 && ids.first?.text == api.firstID, "\(ids)")

            // Paged: page 2 is reached by walking the next URLs
            let page = try await sandbox.run(["page", "2"] + backend)
            #expect(page.succeeded, "\(page)")
            #expect(PrintedList(page.standardOutput).ids == Array(ids.suffix(5)), "\(page)")
            let past = try await sandbox.run(["page", "--next"] + backend)
            expectOneLineError(past, naming: ["page 2 is the last page"])
        }
    }

    @Test("show finds a post of an API without a post path in the pages listed, by its string id")
    func showListedPost() async throws {
        let sandbox = try Sandbox()
        let api = Self.apis[3]  // reddit
        try await withAPI(api) { baseURL in
            let list = try await sandbox.run(arguments(["list"], api, baseURL: baseURL))
            try #require(list.succeeded, "\(list)")
            let show = try await sandbox.run(["show", api.firstID, "--json", "--api", api.preset, "--base-url", baseURL])
            #expect(show.succeeded, "\(show)")
            let post = try ShowJSON.decode(show.standardOutput, from: "show --json").post
            #expect(post.id.text == api.firstID)
        }
    }
}
