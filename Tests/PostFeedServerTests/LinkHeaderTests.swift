import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("Link and X-Total-Count on /api/posts")
struct LinkHeaderTests {
    @Test("page 1 has first, next and last but no prev")
    func firstPageLinks() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer { server, client throws in
            let response = try await client.get("/api/posts?page=1&limit=20")
            let base = server.baseURL.absoluteString
            let links = parseLinks(response.header("Link"))
            #expect(links["first"] == "\(base)/api/posts?page=1&limit=20")
            #expect(links["prev"] == nil)
            #expect(links["next"] == "\(base)/api/posts?page=2&limit=20")
            #expect(links["last"] == "\(base)/api/posts?page=\((total + 19) / 20)&limit=20")
            #expect(response.header("X-Total-Count") == String(total))
        }
    }

    @Test("a middle page has all four relations")
    func middlePageLinks() async throws {
        try await withFixtureServer { server, client throws in
            let links = parseLinks(try await client.get("/api/posts?page=4&limit=10").header("Link"))
            let base = server.baseURL.absoluteString
            #expect(links["prev"] == "\(base)/api/posts?page=3&limit=10")
            #expect(links["next"] == "\(base)/api/posts?page=5&limit=10")
            #expect(Set(links.keys) == ["first", "prev", "next", "last"])
        }
    }

    @Test("the last page has no next, and its Link format is RFC 8288")
    func lastPageLinks() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer { server, client throws in
            let last = (total + 49) / 50
            let response = try await client.get("/api/posts?page=\(last)&limit=50")
            let value = try #require(response.header("Link"))
            let links = parseLinks(value)
            #expect(links["next"] == nil)
            #expect(links["prev"] == "\(server.baseURL.absoluteString)/api/posts?page=\(last - 1)&limit=50")
            #expect(value.hasPrefix("<http://"))
            #expect(value.contains(">; rel=\"first\", <"))
        }
    }

    @Test("links are absolute URLs built from the request's Host")
    func linksFollowHost() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts?page=2", headers: [("Host", "feed.example:8080")])
            let links = parseLinks(response.header("Link"))
            #expect(links["first"] == "http://feed.example:8080/api/posts?page=1&limit=20")
            #expect(links["prev"] == "http://feed.example:8080/api/posts?page=1&limit=20")
        }
    }

    @Test("following next links visits every page once and ends without next")
    func followNext() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer { server, client throws in
            var target: String? = "/api/posts?page=1&limit=30"
            var ids: [PostID] = []
            var hops = 0
            while let current = target, hops < 100 {
                let response = try await client.get(current)
                ids += try response.decode(PostListResponse.self).posts.map(\.id)
                target = parseLinks(response.header("Link"))["next"].map {
                    String($0.dropFirst(server.baseURL.absoluteString.count))
                }
                hops += 1
            }
            #expect(ids == Array(1...total))
            #expect(hops == (total + 29) / 30)
        }
    }
}
