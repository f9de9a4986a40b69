import Foundation
import PostFeedServer
import Testing

/// The recorded-API flavors (issue 32): `Fixtures/apis/<name>/recordings.json` served by path
/// and query, with their headers, statuses and `{base}` made the server's origin.
@Suite("Recorded API responses")
struct RecordedAPITests {
    @Test("WordPress: X-WP-Total, X-WP-TotalPages and a Link header pointing back at this server")
    func wordpressHeaders() async throws {
        try await withFixtureServer({ $0.flavor = .wordpress }) { server, client throws in
            let response = try await client.get("/wp-json/wp/v2/posts?_embed&page=1&per_page=4")
            #expect(response.status == 200)
            #expect(response.header("X-WP-Total") == "10")
            #expect(response.header("X-WP-TotalPages") == "3")
            let base = server.baseURL.absoluteString
            #expect(parseLinks(response.header("Link"))["next"] == "\(base)/wp-json/wp/v2/posts?_embed&page=2&per_page=4")
            let posts = try #require(try response.jsonObject() as? [[String: Any]])
            #expect(posts.count == 4)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(!text.contains("{base}") && text.contains("\(base)/images/"), "image URLs point at this server")
        }
    }

    @Test("the query matches in any order; a recorded path with another query is 404 naming the request")
    func queryMatching() async throws {
        try await withFixtureServer({ $0.flavor = .wordpress }) { _, client throws in
            let reordered = try await client.get("/wp-json/wp/v2/posts?per_page=4&page=2&_embed")
            #expect(reordered.status == 200)
            let unknown = try await client.get("/wp-json/wp/v2/posts?_embed&page=1&per_page=7")
            #expect(unknown.status == 404)
            #expect(String(decoding: unknown.body, as: UTF8.self).contains("no recorded response for GET /wp-json/wp/v2/posts?_embed&page=1&per_page=7"))
            let images = try await client.get("/images/img-001.jpg")
            #expect(images.status == 200, "paths no recording has go on to the image routes")
        }
    }

    @Test("WordPress past the last page: 400 rest_post_invalid_page_number, as WordPress answers")
    func wordpressEnd() async throws {
        try await withFixtureServer({ $0.flavor = .wordpress }) { _, client throws in
            let response = try await client.get("/wp-json/wp/v2/posts?_embed&page=4&per_page=4")
            #expect(response.status == 400)
            let body = try #require(try response.jsonObject() as? [String: Any])
            #expect(body["code"] as? String == "rest_post_invalid_page_number")
        }
    }

    @Test("every recorded API answers its first page", arguments: [
        (BackendFlavor.wordpress, "/wp-json/wp/v2/posts?_embed&page=1&per_page=4"),
        (.mastodon, "/api/v1/timelines/public?limit=4"),
        (.hackernews, "/api/v1/search_by_date?tags=story&page=0&hitsPerPage=4"),
        (.reddit, "/r/postfeed/new.json?limit=4"),
        (.ghost, "/ghost/api/content/posts/?key=22444f78447824223cefc48062&include=authors&page=1&limit=4"),
        (.lemmy, "/api/v3/post/list?sort=New&page=1&limit=4"),
        (.discourse, "/latest.json?page=0"),
        (.forem, "/api/articles?page=1&per_page=4"),
    ])
    func firstPages(flavor: BackendFlavor, target: String) async throws {
        try await withFixtureServer({ $0.flavor = flavor }) { _, client throws in
            let response = try await client.get(target)
            #expect(response.status == 200, "\(flavor) \(target)")
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            _ = try response.jsonObject()
        }
    }

    @Test("Mastodon pages by Link max_id, and past the oldest status answers [] without a Link")
    func mastodonLinks() async throws {
        try await withFixtureServer({ $0.flavor = .mastodon }) { server, client throws in
            var target = "/api/v1/timelines/public?limit=4"
            var counts: [Int] = []
            for _ in 0..<6 {
                let response = try await client.get(target)
                #expect(response.status == 200)
                counts.append((try response.jsonObject() as? [Any])?.count ?? -1)
                guard let next = parseLinks(response.header("Link"))["next"] else { break }
                #expect(next.hasPrefix(server.baseURL.absoluteString))
                target = String(next.dropFirst(server.baseURL.absoluteString.count))
            }
            #expect(counts == [4, 4, 2, 0])
        }
    }
}
