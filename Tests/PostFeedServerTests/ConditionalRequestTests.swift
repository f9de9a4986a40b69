import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("ETag, Cache-Control and 304 on pages and posts")
struct ConditionalRequestTests {
    @Test("pages carry a strong ETag and Cache-Control max-age; different pages differ")
    func validators() async throws {
        try await withFixtureServer { _, client throws in
            let one = try await client.get("/api/posts?page=1")
            let again = try await client.get("/api/posts?page=1")
            let two = try await client.get("/api/posts?page=2")
            let etag = try #require(one.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(etag == again.header("ETag"))
            #expect(etag != two.header("ETag"))
            #expect(one.header("Cache-Control") == "public, max-age=60")
        }
    }

    @Test(
        "a matching If-None-Match gets 304 without a body",
        arguments: ["exact", "weak", "list", "star"])
    func notModified(form: String) async throws {
        try await withFixtureServer { _, client throws in
            let first = try await client.get("/api/posts?page=3")
            let etag = try #require(first.header("ETag"))
            let value: String
            switch form {
            case "weak": value = "W/" + etag
            case "list": value = "\"other\", W/\"x\",\(etag)"
            case "star": value = "*"
            default: value = etag
            }
            let response = try await client.get("/api/posts?page=3", headers: [("If-None-Match", value)])
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == etag)
            #expect(response.header("Cache-Control") == "public, max-age=60")
            #expect(response.header("Content-Length") == nil)
        }
    }

    @Test("a stale If-None-Match gets the full page")
    func staleTag() async throws {
        try await withFixtureServer { _, client throws in
            let page2Tag = try #require(try await client.get("/api/posts?page=2").header("ETag"))
            let response = try await client.get("/api/posts?page=3", headers: [("If-None-Match", page2Tag)])
            #expect(response.status == 200)
            #expect(try response.decode(PostListResponse.self).page == 3)
        }
    }

    @Test("Cache-Control max-age follows the configuration")
    func configuredMaxAge() async throws {
        try await withFixtureServer({ $0.pageMaxAge = 5; $0.imageMaxAge = 7 }) { _, client throws in
            #expect(try await client.get("/api/posts/1").header("Cache-Control") == "public, max-age=5")
            #expect(try await client.get("/images/img-001.jpg").header("Cache-Control") == "public, max-age=7")
        }
    }
}

@Suite("GET /api/posts/{id}")
struct PostByIDTests {
    @Test("a known id returns that post with validators")
    func hit() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts/42")
            #expect(response.status == 200)
            let post = try response.decode(Post.self)
            #expect(post.id == 42)
            #expect(post.popularity == 1.0)  // Fixtures/README.md: post 42 has exactly 1
            let etag = try #require(response.header("ETag"))
            #expect(response.header("Cache-Control")?.contains("max-age=") == true)
            let revalidated = try await client.get("/api/posts/42", headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
        }
    }

    @Test("an unknown id is 404 with an APIErrorBody")
    func unknown() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts/99999")
            #expect(response.status == 404)
            #expect(try response.decode(APIErrorBody.self).error.message.contains("99999"))
        }
    }

    @Test("a non-numeric id is 400")
    func nonNumeric() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/posts/abc")
            #expect(response.status == 400)
            #expect(try response.decode(APIErrorBody.self).error.status == 400)
        }
    }

    @Test("an unknown route is 404 with an APIErrorBody too")
    func unknownRoute() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/api/nothing-here")
            #expect(response.status == 404)
            #expect(try response.decode(APIErrorBody.self).error.status == 404)
        }
    }
}
