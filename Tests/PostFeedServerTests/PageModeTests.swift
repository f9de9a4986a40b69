import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("GET /api/posts in page mode")
struct PageModeTests {
    @Test("the first page holds the first `limit` posts and says more follow")
    func firstPage() async throws {
        // Given the fixture server over Fixtures/
        let total = try fixturePostCount()
        try await withFixtureServer { _, client throws in
            // When the client asks for page 1 with the default limit
            let response = try await client.get("/api/posts")
            // Then it gets posts 1…20 and the paging facts
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let page = try response.decode(PostListResponse.self)
            #expect(page.posts.map(\.id) == Array(1...20))
            #expect(page.page == 1)
            #expect(page.limit == 20)
            #expect(page.total == total)
            #expect(page.totalPages == (total + 19) / 20)
            #expect(page.hasMore)
            #expect(page.nextCursor != nil)
        }
    }

    @Test("a middle page starts where the previous one ended")
    func middlePage() async throws {
        try await withFixtureServer { _, client throws in
            let page = try await client.get("/api/posts?page=3&limit=25").decode(PostListResponse.self)
            #expect(page.posts.map(\.id) == Array(51...75))
            #expect(page.page == 3)
            #expect(page.limit == 25)
            #expect(page.hasMore)
        }
    }

    @Test("the last page is short and says nothing follows")
    func lastPage() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer { _, client throws in
            let lastPage = (total + 19) / 20
            let page = try await client.get("/api/posts?page=\(lastPage)&limit=20").decode(PostListResponse.self)
            #expect(page.posts.map(\.id) == Array(((lastPage - 1) * 20 + 1)...total))
            #expect(!page.hasMore)
            #expect(page.nextCursor == nil)
            #expect(page.totalPages == lastPage)
        }
    }

    @Test("the wire body has every documented key, with nextCursor null at the end")
    func wireShape() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts?page=\((total + 99) / 100)&limit=100")
            let object = try #require(try response.jsonObject() as? [String: Any])
            #expect(Set(object.keys) == ["posts", "page", "limit", "total", "totalPages", "hasMore", "nextCursor"])
            #expect(object["nextCursor"] is NSNull)
            #expect(response.text.contains("\"imageUrl\":\"/images/"))
        }
    }

    @Test("posts keep their fields; posts without an image have no imageUrl")
    func postFields() async throws {
        try await withFixtureServer { _, client throws in
            let page = try await client.get("/api/posts?page=1&limit=10").decode(PostListResponse.self)
            let first = try #require(page.posts.first)
            #expect(!first.title.isEmpty && !first.body.isEmpty)
            #expect(first.author != nil && first.createdAt != nil && first.popularity != nil)
            #expect(first.imageURL?.hasPrefix("/images/") == true)
            // Post 5 is one of the fixtures without an image (Fixtures/README.md).
            let post5 = page.posts.first { $0.id == 5 }
            #expect(post5 != nil)
            #expect(post5?.imageURL == nil)
        }
    }

    @Test("a page past the end is 404 with an APIErrorBody naming the page")
    func outOfRange() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts?page=999&limit=20")
            #expect(response.status == 404)
            let error = try response.decode(APIErrorBody.self)
            #expect(error.error.status == 404)
            #expect(error.error.message.contains("999"))
            #expect(response.header("ETag") == nil)
        }
    }

    @Test(
        "bad page or limit values are 400 with an APIErrorBody",
        arguments: [
            "limit=abc", "limit=", "limit=0", "limit=101", "limit=-5", "limit=1.5",
            "page=0", "page=-1", "page=abc", "page=", "page=2&cursor=abc",
        ])
    func badParameters(query: String) async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts?\(query)")
            #expect(response.status == 400)
            let error = try response.decode(APIErrorBody.self)
            #expect(error.error.status == 400)
            #expect(!error.error.message.isEmpty)
        }
    }

    @Test("limit 1 and limit 100 are both accepted")
    func limitBounds() async throws {
        try await withFixtureServer { _, client throws in
            let one = try await client.get("/api/posts?limit=1").decode(PostListResponse.self)
            let hundred = try await client.get("/api/posts?limit=100").decode(PostListResponse.self)
            #expect(one.posts.count == 1)
            #expect(hundred.posts.count == 100)
        }
    }

    @Test("HEAD answers the same headers without a body")
    func head() async throws {
        try await withFixtureServer { _, client throws in
            let get = try await client.get("/api/posts?page=2")
            let head = try await client.request("HEAD", "/api/posts?page=2")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    @Test("page 1 of an empty list is valid and empty; page 2 is 404")
    func emptyList() async throws {
        try await withTemporaryFixtures(postsJSON: "[]") { directory in
            try await withFixtureServer({ $0.fixturesDirectory = directory }) { _, client throws in
                let response = try await client.get("/api/posts?page=1")
                #expect(response.status == 200)
                let page = try response.decode(PostListResponse.self)
                #expect(page.posts.isEmpty)
                #expect(page.total == 0)
                #expect(page.totalPages == 1)
                #expect(!page.hasMore)
                #expect(page.nextCursor == nil)
                #expect(response.header("X-Total-Count") == "0")
                #expect(parseLinks(response.header("Link"))["next"] == nil)
                #expect(try await client.get("/api/posts?page=2").status == 404)
            }
        }
    }
}
