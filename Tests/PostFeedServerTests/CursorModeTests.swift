import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("GET /api/posts in cursor mode")
struct CursorModeTests {
    @Test("walking nextCursor from the first page visits every post exactly once", arguments: [20, 7, 100])
    func walk(limit: Int) async throws {
        // Given the fixture server
        let total = try fixturePostCount()
        try await withFixtureServer { server, client throws in
            // When the client follows nextCursor until it is null
            var seen: [PostID] = []
            var cursor: String?
            var requests = 0
            repeat {
                let target = cursor.map { "/api/posts?cursor=\($0)&limit=\(limit)" } ?? "/api/posts?limit=\(limit)"
                let page = try await client.get(target).decode(PostListResponse.self)
                #expect(page.posts.count <= limit)
                #expect(page.hasMore == (page.nextCursor != nil))
                seen += page.posts.map(\.id)
                cursor = page.nextCursor
                requests += 1
            } while cursor != nil && requests < 1_000
            // Then it saw every id once, in order, in ceil(total / limit) requests
            #expect(seen == Array(1...total))
            #expect(requests == (total + limit - 1) / limit)
            #expect(server.requestCount(path: "/api/posts") == requests)
        }
    }

    @Test("an empty cursor is the first page")
    func emptyCursor() async throws {
        try await withFixtureServer { _, client throws in
            let page = try await client.get("/api/posts?cursor=&limit=5").decode(PostListResponse.self)
            #expect(page.posts.map(\.id) == [1, 2, 3, 4, 5])
        }
    }

    @Test(
        "a cursor the server never issued is 400",
        arguments: ["garbage!", "bzoxMA==", "%00", "eDox", String(repeating: "A", count: 100), "bzo5OTk5"])
    func badCursor(cursor: String) async throws {
        // "bzoxMA==" is "o:10" with padding (not the canonical spelling); "eDox" is "x:1";
        // "bzo5OTk5" is "o:9999", past the end.
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts?cursor=\(cursor)&limit=10")
            #expect(response.status == 400)
            #expect(try response.decode(APIErrorBody.self).error.message.contains("cursor"))
        }
    }

    @Test("cursor-mode links continue in cursor mode")
    func cursorLinks() async throws {
        try await withFixtureServer { server, client throws in
            let first = try await client.get("/api/posts?limit=10").decode(PostListResponse.self)
            let next = try #require(first.nextCursor)
            let response = try await client.get("/api/posts?cursor=\(next)&limit=10")
            let links = parseLinks(response.header("Link"))
            let page = try response.decode(PostListResponse.self)
            #expect(page.posts.first?.id == 11)
            #expect(links["first"] == "\(server.baseURL.absoluteString)/api/posts?limit=10")
            #expect(links["prev"] == "\(server.baseURL.absoluteString)/api/posts?limit=10")
            #expect(links["next"] == "\(server.baseURL.absoluteString)/api/posts?cursor=\(page.nextCursor ?? "-")&limit=10")
            #expect(links["last"]?.contains("cursor=") == true)
        }
    }
}
