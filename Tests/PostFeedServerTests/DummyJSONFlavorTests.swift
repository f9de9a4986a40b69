import Foundation
import PostFeedServer
import Testing

@Suite("Flavor: DummyJSON")
struct DummyJSONFlavorTests {
    private func withFlavor<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (RunningFixtureServer, RawHTTPClient) async throws -> T
    ) async throws -> T {
        try await withFixtureServer({ $0.flavor = .dummyJSON }, body)
    }

    @Test("defaults: limit 30, skip 0, body {posts,total,skip,limit}")
    func defaults() async throws {
        let total = try PeerData.dummyJSONPostCount()
        try await withFlavor { _, client throws in
            let response = try await client.get("/posts")
            let body = try response.object()
            #expect(Set(body.keys) == ["posts", "total", "skip", "limit"])
            #expect(ids(try #require(body["posts"] as? [[String: Any]])) == Array(1...30))
            #expect(body["total"] as? Int == total)
            #expect(body["skip"] as? Int == 0)
            #expect(body["limit"] as? Int == 30)
            #expect(response.text.hasPrefix("{\"posts\":[{\"id\":1,"))
        }
    }

    @Test("limit and skip page through the list; the last page is short")
    func paging() async throws {
        let total = try PeerData.dummyJSONPostCount()
        try await withFlavor { _, client throws in
            let middle = try await client.get("/posts?limit=10&skip=20").object()
            #expect(ids(try #require(middle["posts"] as? [[String: Any]])) == Array(21...30))
            #expect(middle["skip"] as? Int == 20)
            let last = try await client.get("/posts?limit=10&skip=\(total - 3)").object()
            #expect(ids(try #require(last["posts"] as? [[String: Any]])) == Array((total - 2)...total))
            #expect(last["limit"] as? Int == 3)
        }
    }

    @Test("skip past the end: 200, no posts, limit 0")
    func pastTheEnd() async throws {
        let total = try PeerData.dummyJSONPostCount()
        try await withFlavor { _, client throws in
            let response = try await client.get("/posts?limit=10&skip=\(total + 10)")
            #expect(response.status == 200)
            let body = try response.object()
            #expect((body["posts"] as? [Any])?.isEmpty == true)
            #expect(body["limit"] as? Int == 0)
            #expect(body["total"] as? Int == total)
        }
    }

    @Test("limit=0 means all posts")
    func limitZero() async throws {
        let total = try PeerData.dummyJSONPostCount()
        try await withFlavor { _, client throws in
            let body = try await client.get("/posts?limit=0").object()
            #expect((body["posts"] as? [Any])?.count == total)
            #expect(body["limit"] as? Int == total)
        }
    }

    @Test("a bad limit or skip is 400 with DummyJSON's message", arguments: [
        ("limit=abc", "limit"), ("limit=-1", "limit"), ("skip=x", "skip"), ("skip=-5", "skip"),
    ])
    func badParameters(query: String, name: String) async throws {
        try await withFlavor { _, client throws in
            let response = try await client.get("/posts?\(query)")
            #expect(response.status == 400)
            #expect(try response.object()["message"] as? String == "Invalid '\(name)' - should be a positive number")
        }
    }

    @Test("select keeps id and the listed fields")
    func select() async throws {
        try await withFlavor { _, client throws in
            let posts = try #require(try await client.get("/posts?limit=2&select=title").object()["posts"] as? [[String: Any]])
            #expect(posts.count == 2)
            #expect(Set(posts[0].keys) == ["id", "title"])
        }
    }

    @Test("/posts/{id}: the post, 400 for a non-number, 404 for an unknown id")
    func item() async throws {
        try await withFlavor { _, client throws in
            let hit = try await client.get("/posts/5").object()
            #expect(hit["id"] as? Int == 5)
            #expect(hit["reactions"] is [String: Any])
            let bad = try await client.get("/posts/abc")
            #expect(bad.status == 400)
            #expect(try bad.object()["message"] as? String == "Invalid post id 'abc'")
            let miss = try await client.get("/posts/99999")
            #expect(miss.status == 404)
            #expect(try miss.object()["message"] as? String == "Post with id '99999' not found")
        }
    }
}
