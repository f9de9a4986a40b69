import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// Issue 32, item 3: each API preset against the fixture server serving that API's recorded
/// responses (`Fixtures/apis/<name>/`), over real libcurl: every post once, in order, the
/// end found by the API's own signal, and each post's parts where the API keeps them.
@Suite("API presets walk their recorded APIs to the end")
struct APIPresetWalkTests {
    struct Walk {
        var pages: [Page]
        var requests: [RecordedRequest]
        var posts: [Post] { pages.flatMap(\.posts) }
    }

    func walk(_ flavor: BackendFlavor, pageSize: Int = 4) async throws -> Walk {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: flavor)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let baseURL = try #require(URL(string: server.baseURL.absoluteString + flavor.recordedBaseURLSuffix))
                    let repository = try HTTPPostRepository(
                        backend: try BackendDescription.preset(flavor.rawValue, baseURL: baseURL), pageSize: pageSize,
                        loader: client, pageCache: try DiskCache(directory: folder))
                    let pages = try await walkToEnd(repository)
                    return Walk(pages: pages, requests: server.recordedRequests)
                }
            }
        }
    }

    func expectWhole(_ walk: Walk, posts: Int, pages: Int, requests: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let ids = walk.posts.map(\.id)
        #expect(ids.count == posts, "\(ids)", sourceLocation: sourceLocation)
        #expect(Set(ids).count == posts, "every post once: \(ids)", sourceLocation: sourceLocation)
        #expect(walk.pages.count == pages, sourceLocation: sourceLocation)
        #expect(walk.requests.count == requests, "\(walk.requests.map { $0.path + "?" + ($0.query ?? "") })", sourceLocation: sourceLocation)
        let noProblems = walk.pages.allSatisfy { $0.decodingProblems.isEmpty }
        #expect(noProblems, "\(walk.pages.flatMap(\.decodingProblems))", sourceLocation: sourceLocation)
    }

    @Test("wordpress: X-WP-TotalPages ends it at page 3; title.rendered as sent, embedded author and image, date_gmt as UTC")
    func wordpress() async throws {
        let walk = try await walk(.wordpress)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        #expect(walk.requests.first?.query == "_embed&page=1&per_page=4")
        #expect(walk.pages.map(\.totalCount) == [10, 10, 10])
        #expect(walk.pages.map(\.totalPages) == [3, 3, 3])
        let first = try #require(walk.posts.first)
        #expect(first.id == "1200")
        // The library keeps titles as the API sends them (HTML with entities): rendering is the
        // reader's (PostFeedFormats), as for bodies.
        #expect(first.title == "Notes on &#8220;quiet terminals&#8221; &amp; what we learnt")
        #expect(first.body.hasPrefix("<p>We spent a week on <strong>quiet terminals</strong>.</p>"))
        #expect(first.author == "Ada Brooks")
        #expect(first.imageURL?.hasSuffix("/images/img-001.jpg") == true, "\(String(describing: first.imageURL))")
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_751_155_207), "2025-06-29T00:00:07 without a zone is UTC")
        #expect(walk.posts[3].imageURL == nil, "the fourth post has no featured media")
    }

    @Test("wordpress: a page past the last answers 400 rest_post_invalid_page_number, which is the end, not a failure")
    func wordpressPastTheEnd() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: .wordpress)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try HTTPPostRepository(
                        backend: try BackendDescription.preset("wordpress", baseURL: server.baseURL), pageSize: 4, loader: client,
                        pageCache: try DiskCache(directory: folder))
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(4), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(error?.code == .pageOutOfRange)
                    #expect(error?.message.contains("past the end of the list (HTTP 400 rest_post_invalid_page_number)") == true,
                            "\(String(describing: error))")

                    // Another 400 is still an error: the end status is matched by its code.
                    var strict = try BackendDescription.preset("wordpress", baseURL: server.baseURL)
                    strict.endStatuses = [EndStatus(status: 400, code: "rest_other")]
                    let other = try HTTPPostRepository(
                        backend: strict, pageSize: 4, loader: client, pageCache: try DiskCache(directory: folder))
                    let failure = await #expect(throws: RepositoryError.self) {
                        try await other.page(.number(4), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(failure?.code == .httpStatus)
                }
            }
        }
    }

    @Test("mastodon: Link max_id to an empty page; ids beyond 2^63 as strings; the title is the first line of the text")
    func mastodon() async throws {
        let walk = try await walk(.mastodon)
        expectWhole(walk, posts: 10, pages: 4, requests: 4)
        #expect(walk.pages.last?.posts.isEmpty == true)
        let first = try #require(walk.posts.first)
        #expect(first.id == "9223372036854775999")
        #expect(first.title == "Today I learnt about time zones & liked it.")
        #expect(first.author == "Ada Brooks")
        #expect(first.popularity == 3)
        #expect(first.imageURL?.contains("/images/") == true)
        #expect(walk.posts[5].title == "CW: escape sequences", "a content warning is the title")
        #expect(walk.requests[1].query?.contains("max_id=") == true, "\(walk.requests[1])")
    }

    @Test("hackernews: pages from 0 to nbPages; objectID, points; a text post's story_text")
    func hackerNews() async throws {
        let walk = try await walk(.hackernews)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        let expectedQueries = (0...2).map { "tags=story&page=\($0)&hitsPerPage=4" }
        #expect(walk.requests.map(\.query) == expectedQueries)
        #expect(walk.pages.map(\.totalPages) == [3, 3, 3])
        let first = try #require(walk.posts.first)
        #expect(first.id == "44100000")
        #expect(first.popularity == 100)
        #expect(first.imageURL == nil, "a story's url is its link, not an image")
        #expect(walk.posts[2].body.contains("Ask HN"))
    }

    @Test("reddit: cursor data.after until null; t3 names; the preview's &amp; decoded, thumbnail \"self\" no image; epoch dates")
    func reddit() async throws {
        let walk = try await walk(.reddit)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        let allOnTheSubreddit = walk.requests.allSatisfy { $0.path == "/r/postfeed/new.json" }
        #expect(allOnTheSubreddit)
        let posts = walk.posts
        let allLinks = posts.allSatisfy { $0.id.text.hasPrefix("t3_") }
        #expect(allLinks)
        #expect(posts[0].imageURL == nil, "thumbnail \"self\"")
        let preview = try #require(posts[1].imageURL)
        #expect(preview.contains("?width=640&s=5f2a9c1") && !preview.contains("&amp;"), "\(preview)")
        #expect(posts[0].createdAt == Date(timeIntervalSince1970: 1_751_241_600))
        #expect(posts[0].popularity == 250)
        #expect(posts[0].body.hasPrefix("Has anyone tried"))
    }

    @Test("ghost: the key from the base URL on every request; meta.pagination; hex ids, primary author, feature_image")
    func ghost() async throws {
        let walk = try await walk(.ghost)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        let allWithTheKey = walk.requests.allSatisfy { $0.query?.contains("key=22444f78447824223cefc48062") == true }
        #expect(allWithTheKey)
        #expect(walk.pages.map(\.totalCount) == [10, 10, 10])
        let first = try #require(walk.posts.first)
        #expect(first.id == "5ddc9141c35e7700383b2937")
        #expect(first.author == "Ada Brooks")
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_751_155_207 - 7_200), "+02:00 kept")
        #expect(walk.posts[7].imageURL == nil)
        #expect(first.imageURL?.contains("?key=") == false, "an absolute image URL is the CDN's, not given the key")
    }

    @Test("lemmy: post, creator and counts; Markdown bodies; dates with and without a zone; a short page ends it")
    func lemmy() async throws {
        let walk = try await walk(.lemmy)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        let posts = walk.posts
        #expect(posts[0].id == "88000")
        #expect(posts[0].title == "Discussion: line wrapping")
        #expect(posts[0].body.hasPrefix("## Why line wrapping"))
        #expect(posts[0].popularity == 40)
        #expect(posts.map(\.author).prefix(2) == ["Ada Brooks", "bruno"], "display name, else the name")
        let allDated = posts.allSatisfy { $0.createdAt != nil }
        #expect(allDated, "\(posts.map(\.createdAt))")
        let zoneless = try #require(posts[1].createdAt)
        #expect(abs(zoneless.timeIntervalSince1970 - (1_751_155_207 - 67 * 60 + 0.123456)) < 0.001)
    }

    @Test("discourse: pages from 0 of the server's 30; the end when more_topics_url is absent; like_count, image_url")
    func discourse() async throws {
        let walk = try await walk(.discourse, pageSize: 20)
        expectWhole(walk, posts: 35, pages: 2, requests: 2)
        #expect(walk.requests.map(\.query) == ["page=0", "page=1"], "no page-size parameter")
        #expect(walk.pages.map(\.posts.count) == [30, 5], "the server's page size, not the 20 asked")
        let first = try #require(walk.posts.first)
        #expect(first.id == "9100")
        #expect(first.popularity == 0)
        #expect(first.imageURL?.contains("/images/") == true)
        #expect(walk.posts[1].imageURL == nil)
    }

    @Test("forem: a bare array; cover_image else social_image; positive_reactions_count; a short page ends it")
    func forem() async throws {
        let walk = try await walk(.forem)
        expectWhole(walk, posts: 10, pages: 3, requests: 3)
        let first = try #require(walk.posts.first)
        #expect(first.id == "2100000")
        #expect(first.title == "Ten lessons from cache eviction")
        #expect(first.author == "Ada Brooks")
        #expect(first.popularity == 60)
        let allWithImages = walk.posts.allSatisfy { $0.imageURL != nil }
        #expect(allWithImages)
    }

    @Test("the default page size of 20 is recorded too: one request answers a whole API")
    func defaultPageSize() async throws {
        for flavor in [BackendFlavor.wordpress, .hackernews, .reddit, .ghost, .lemmy, .forem] {
            let walk = try await walk(flavor, pageSize: 20)
            #expect(walk.posts.count == 10, "\(flavor)")
            #expect(walk.requests.count == 1, "\(flavor): \(walk.requests)")
        }
    }
}
