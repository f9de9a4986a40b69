import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Issue 32, item 2: a feed by its URL alone. The fixture server serves the recorded feeds
/// of `Fixtures/feeds/site/` (`FeedRoutes`): a WordPress-style RSS feed paged by
/// `?paged=N` with a 404 past its third page, an Atom feed paged by `<link rel="next">`,
/// and a JSON Feed paged by `next_url` (sent as `application/json`: the body says what it
/// is). The real `postfeed` binary walks each to its end in both modes, over several runs.
@Suite("feeds by URL alone")
struct FeedURLTests {
    /// One served feed and what a reader should find in it.
    struct Served: CustomTestStringConvertible, Sendable {
        let name: String
        let path: String
        /// The ids of its posts, newest first, page by page as the server pages them.
        let pages: [[PostID]]

        var ids: [PostID] { pages.flatMap { $0 } }
        var testDescription: String { name }
    }

    static let rss = Served(
        name: "RSS 2.0 (WordPress ?paged=N, 404 past the end)", path: "/feeds/rss/",
        pages: [[107, 106, 105], [104, 103, 102], [101]].map { $0.map { PostID("https://blog.example.org/?p=\($0)")! } })
    static let atom = Served(
        name: "Atom 1.0 (rel=next)", path: "/feeds/atom",
        pages: [[205, 204, 203], [202, 201]].map { $0.map { PostID("tag:fixture.postfeed.example,2025:entry-\($0)")! } })
    static let jsonFeed = Served(
        name: "JSON Feed 1.1 (next_url, served as application/json)", path: "/feeds/json",
        pages: [
            ["https://json-site.example/posts/304", "https://json-site.example/posts/303", "302"],
            ["https://json-site.example/posts/301"],
        ])
    static let all = [rss, atom, jsonFeed]

    private func url(_ feed: Served, on server: RunningFixtureServer) -> String {
        server.baseURL.absoluteString + feed.path
    }

    @Test("infinite mode: list walks each feed to its end, one server page a run, and the next run continues", arguments: all)
    func infiniteWalk(feed: Served) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            var printed: [PostID] = []
            var positions: [Int] = []
            var runs = 0
            var last: PostfeedResult?
            // When: list until the feed says it ended (at most one run more than it has pages)
            while runs <= feed.pages.count + 1 {
                runs += 1
                let run = try await sandbox.run(["list", "--no-images", "--base-url", url(feed, on: server)])
                try #require(run.succeeded, "\(run)")
                last = run
                let list = PrintedList(run.standardOutput)
                if list.entries.isEmpty { break }
                // Then: each run prints one page as the server made it, nothing repeated
                #expect(list.ids == feed.pages[min(runs - 1, feed.pages.count - 1)], "run \(runs): \(run)")
                printed += list.ids
                positions += list.positions
            }
            #expect(printed == feed.ids, "\(String(describing: last))")
            #expect(positions == Array(1...feed.ids.count))
            #expect(last?.standardOutput.contains("End of the feed: all \(feed.ids.count) posts are loaded") == true, "\(String(describing: last))")
            #expect(runs <= feed.pages.count + 1, "the end was found within one run past the last page")

            // And: the state file keeps the place: every post loaded, in the feed's order
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == feed.ids)
            #expect(state.endReached)
            #expect(state.backendIdentity.hasPrefix("feed "), "\(state.backendIdentity)")
        }
    }

    @Test("numbered pages: page, --next to the end, --last, and the saved page across runs", arguments: all)
    func pagedWalk(feed: Served) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let base = url(feed, on: server)
            // Given: page 1
            let first = try await sandbox.run(["page", "1", "--no-images", "--base-url", base])
            try #require(first.succeeded, "\(first)")
            #expect(PrintedList(first.standardOutput).ids == feed.pages[0], "\(first)")

            // When: --next page by page, each a new run
            var start = feed.pages[0].count + 1
            for (index, expected) in feed.pages.enumerated().dropFirst() {
                let next = try await sandbox.run(["page", "--next", "--no-images", "--base-url", base])
                try #require(next.succeeded, "\(next)")
                let list = PrintedList(next.standardOutput)
                #expect(next.standardOutput.hasPrefix("Page \(index + 1)"), "\(next)")
                #expect(list.ids == expected, "\(next)")
                // Numbers count the posts of the pages before, as the server made them.
                #expect(list.positions == Array(start..<(start + expected.count)), "\(next)")
                start += expected.count
            }

            // Then: past the last page, one line naming the pages there are, and the place stays
            let past = try await sandbox.run(["page", "--next", "--no-images", "--base-url", base])
            #expect(past.failed, "\(past)")
            let pageCount = feed.pages.count
            #expect(past.errorMessage?.contains("past the end (\(pageCount) pages); try 1…\(pageCount)") == true
                || past.errorMessage?.contains("page \(pageCount) is the last page") == true, "\(past)")
            let saved = try await sandbox.run(["page", "--no-images", "--base-url", base])
            #expect(saved.succeeded, "\(saved)")
            #expect(saved.standardOutput.hasPrefix("Page \(pageCount)"), "the saved page is shown again: \(saved)")
            #expect(PrintedList(saved.standardOutput).ids == feed.pages[pageCount - 1], "\(saved)")
            let state = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
            #expect(state.currentPage == pageCount)

            // And: --last from a fresh cache walks to the same last page
            let fresh = try Sandbox()
            let last = try await fresh.run(["page", "--last", "--no-images", "--base-url", base])
            #expect(last.succeeded, "\(last)")
            #expect(PrintedList(last.standardOutput).ids == feed.pages[pageCount - 1], "\(last)")
            #expect(last.standardOutput.contains("— last page —"), "\(last)")
        }
    }

    @Test("--api feed names a feed explicitly, and --page-size says in one line that it changes nothing")
    func explicitAPIAndPageSize() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: --api feed names the format family, --page-size 2 is asked for
            let run = try await sandbox.run([
                "list", "--no-images", "--api", "feed", "--page-size", "2", "--base-url", url(Self.atom, on: server),
            ])

            // Then: the server's page of three, and one line on stderr
            #expect(run.succeeded, "\(run)")
            #expect(PrintedList(run.standardOutput).ids == Self.atom.pages[0], "\(run)")
            let notes = run.errorLines.filter { $0.contains("--page-size") }
            #expect(notes == ["postfeed: --page-size 2 changes nothing here: a feed's pages are as long as its server makes them"], "\(run)")
        }
    }

    @Test("show, image, --json and the text: an RSS post as people read it, its original kept")
    func showImageAndText() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let base = url(Self.rss, on: server)
            // Given: the first page listed (titles with numeric references decoded)
            let list = try await sandbox.run(["list", "--no-images", "--base-url", base])
            try #require(list.succeeded, "\(list)")
            #expect(PrintedList(list.standardOutput).entries.first?.title == "It’s a “quoted” title & more", "\(list)")
            #expect(!list.standardOutput.contains("&#"), "\(list)")

            // When: one post in full
            let show = try await sandbox.run(["show", "https://blog.example.org/?p=107", "--images", "none", "--base-url", base])

            // Then: laid out as text, links numbered under it, the script dropped, no markup
            #expect(show.succeeded, "\(show)")
            let text = show.standardOutput
            #expect(text.contains("FIRST THINGS"), "\(show)")
            #expect(text.contains("Café notes with bold words and a link to Swift [1]."), "\(show)")
            #expect(text.contains("• one point\n• another point"), "\(show)")
            #expect(text.contains("[1] https://swift.org/documentation/"), "\(show)")
            #expect(text.contains("[2] \(server.baseURL.absoluteString)/blog/about/"), "relative link resolved against the post's: \(show)")
            #expect(!text.contains("<p>") && !text.contains("alert"), "\(show)")
            #expect(text.contains("image: \(server.baseURL.absoluteString)/images/img-001.jpg"), "media:content: \(show)")

            // And: --json keeps the HTML as sent and adds the text beside it
            let json = try await sandbox.run(["show", "https://blog.example.org/?p=107", "--json", "--base-url", base])
            #expect(json.succeeded, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let post = try #require(object["post"] as? [String: Any], "\(json)")
            #expect((post["body"] as? String)?.contains("<h2 class=\"wp-block-heading\">First things</h2>") == true, "\(json)")
            #expect((post["text"] as? String)?.hasPrefix("FIRST THINGS\n\nCafé notes") == true, "\(json)")
            #expect(post["bodyFormat"] as? String == "html", "\(json)")

            // And: image ID writes the picture: an enclosure's, and one only in the body
            for (id, file) in [("https://blog.example.org/?p=106", "enclosure.jpg"), ("https://blog.example.org/?p=105", "body.png")] {
                let image = try await sandbox.run(["image", id, "--output", file, "--base-url", base])
                #expect(image.succeeded, "\(image)")
                let bytes = try Data(contentsOf: sandbox.directory.appendingPathComponent(file))
                #expect(bytes.count > 100, "\(image)")
            }
        }
    }

    @Test("--sort popularity on a feed says in one line that there is no score, and --unseen skips what was shown")
    func popularityAndUnseen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let base = url(Self.rss, on: server)
            // Given: the first page shown
            let first = try await sandbox.run(["list", "--no-images", "--base-url", base])
            try #require(first.succeeded, "\(first)")

            // When: the unseen posts from the top
            let unseen = try await sandbox.run(["list", "--unseen", "--restart", "--pages", "3", "--no-images", "--base-url", base])

            // Then: none of the three shown first
            #expect(unseen.succeeded, "\(unseen)")
            let ids = PrintedList(unseen.standardOutput).ids
            #expect(!ids.isEmpty && Set(ids).isDisjoint(with: Self.rss.pages[0]), "\(unseen)")

            // When: the popularity order of the whole feed
            let sorted = try await sandbox.run(["list", "--sort", "popularity", "--no-images", "--base-url", base])

            // Then: every post, in the feed's order, and one line saying why
            #expect(sorted.succeeded, "\(sorted)")
            #expect(PrintedList(sorted.standardOutput).ids == Self.rss.ids, "\(sorted)")
            let saysNoScore = sorted.errorLines.contains { $0.contains("no post of this backend has a popularity score (feeds carry none)") }
            #expect(saysNoScore, "\(sorted)")

            // …and the posts it printed count as seen: no unseen post is left
            let after = try await sandbox.run(["list", "--unseen", "--restart", "--no-images", "--base-url", base])
            #expect(after.succeeded, "\(after)")
            #expect(PrintedList(after.standardOutput).ids.isEmpty, "\(after)")
        }
    }

    @Test("mode switches on a feed keep each mode's place")
    func modeSwitch() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let base = url(Self.jsonFeed, on: server)
            // Given: the whole JSON Feed listed, page 2 shown in numbered mode
            for _ in 0..<2 { _ = try await sandbox.run(["list", "--no-images", "--base-url", base]) }
            let page = try await sandbox.run(["page", "2", "--no-images", "--base-url", base])
            try #require(page.succeeded, "\(page)")

            // When: the current mode changes back and forth
            let toInfinite = try await sandbox.run(["mode", "infinite", "--base-url", base])
            #expect(toInfinite.succeeded, "\(toInfinite)")
            let toPaged = try await sandbox.run(["mode", "paged", "--base-url", base])
            #expect(toPaged.succeeded, "\(toPaged)")

            // Then: the infinite list keeps its four posts, and list says it ended
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs == Self.jsonFeed.ids)
            let list = try await sandbox.run(["list", "--mode", "infinite", "--no-images", "--base-url", base])
            #expect(list.succeeded, "\(list)")
            #expect(list.standardOutput.contains("End of the feed: all 4 posts are loaded"), "\(list)")
        }
    }

    @Test("browse scrolls a feed past its first page, titles decoded, and the next browse resumes at the place")
    func browseFeed() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let base = url(Self.rss, on: server)
            // When: four posts down (past the server's first page of three), then quit
            let run = try await sandbox.run(["browse", "--base-url", base], standardInput: Data("jjjjq".utf8))

            // Then: the decoded title is drawn, and the place is the fifth post
            #expect(run.succeeded, "\(run)")
            #expect(run.standardOutput.contains("It’s a “quoted” title & more"), "\(run)")
            #expect(!run.standardOutput.contains("&#8217;"), "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.anchor?.postID == Self.rss.ids[4], "\(String(describing: state.anchor))")

            // When: browsing again
            let again = try await sandbox.run(["browse", "--base-url", base], standardInput: Data("q".utf8))

            // Then: the first frame starts at that post
            #expect(again.succeeded, "\(again)")
            let header = again.outputLines.first { $0.hasPrefix("PostFeed · ") }
            #expect(header?.hasPrefix("PostFeed · infinite · posts 5–") == true, "\(again)")
        }
    }

    @Test("a feed page longer than the page size: browse in numbered mode saves a place past post 20 and resumes there")
    func longFeedPage() async throws {
        let sandbox = try Sandbox()
        let items = (1...25).map { "<item><title>Item \($0)</title><guid>item-\($0)</guid><description>Body \($0)</description></item>" }
        let feed = Data((#"<?xml version="1.0"?><rss version="2.0"><channel><title>Long</title>"# + items.joined()
            + "</channel></rss>").utf8)
        try await CannedHTTPServer.withRunning(body: feed, contentType: "application/rss+xml") { server in
            let base = server.baseURL + "/index.xml"
            // Given: numbered mode, the one page of 25 posts
            let mode = try await sandbox.run(["mode", "paged", "--base-url", base])
            try #require(mode.succeeded, "\(mode)")

            // When: 22 posts down, then quit
            let run = try await sandbox.run(["browse", "--base-url", base], standardInput: Data((String(repeating: "j", count: 22) + "q").utf8))

            // Then: the place is saved, its post the 23rd
            #expect(run.succeeded, "\(run)")
            #expect(run.errorLines.last == "postfeed: place saved (paged mode)", "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
            #expect(state.anchor?.postID == "item-23", "\(String(describing: state.anchor))")

            // And: the next browse starts there
            let again = try await sandbox.run(["browse", "--base-url", base], standardInput: Data("q".utf8))
            #expect(again.succeeded, "\(again)")
            let firstEntry = again.outputLines.first { $0.contains("Item ") }
            #expect(firstEntry?.contains("23. Item 23") == true, "\(again)")
        }
    }

    @Test("a URL that is no feed is one line naming it and what to do")
    func notAFeed() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(body: Data("<html><body>Sign in</body></html>".utf8), contentType: "text/html") { server in
            let run = try await sandbox.run(["list", "--no-images", "--base-url", server.baseURL + "/feed/"])
            #expect(run.failed, "\(run)")
            let message = try #require(run.errorMessage, "\(run)")
            #expect(message.contains("\(server.baseURL)/feed/"), "\(run)")
            #expect(message.contains("is not RSS, Atom or JSON Feed"), "\(run)")
            #expect(message.contains("the feed's own address"), "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
        }
    }
}
