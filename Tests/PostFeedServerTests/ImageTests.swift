import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("GET /images/{name}")
struct ImageTests {
    private func fixtureImage(_ name: String) throws -> Data {
        try Data(contentsOf: FixtureLocator.fixturesDirectory().appendingPathComponent("images/\(name)"))
    }

    @Test("serves the file's bytes with its content type and validators", arguments: [
        ("img-001.jpg", "image/jpeg"), ("img-003.png", "image/png"),
    ])
    func bytes(name: String, contentType: String) async throws {
        let expected = try fixtureImage(name)
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/images/\(name)")
            #expect(response.status == 200)
            #expect(Data(response.body) == expected)
            #expect(response.header("Content-Type") == contentType)
            #expect(response.header("Content-Length") == String(expected.count))
            #expect(response.header("ETag")?.hasPrefix("\"") == true)
            #expect(response.header("Last-Modified")?.hasSuffix(" GMT") == true)
            #expect(response.header("Cache-Control") == "public, max-age=86400")
        }
    }

    @Test("distinct images have distinct ETags")
    func distinctTags() async throws {
        try await withFixtureServer { _, client throws in
            let one = try await client.get("/images/img-001.jpg").header("ETag")
            let two = try await client.get("/images/img-002.jpg").header("ETag")
            #expect(one != nil && one != two)
        }
    }

    @Test("If-None-Match with the image's ETag gets 304")
    func notModifiedByETag() async throws {
        try await withFixtureServer { _, client throws in
            let etag = try #require(try await client.get("/images/img-002.jpg").header("ETag"))
            let response = try await client.get("/images/img-002.jpg", headers: [("If-None-Match", etag)])
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == etag)
            #expect(response.header("Last-Modified") != nil)
        }
    }

    @Test("If-Modified-Since at or after Last-Modified gets 304; before it gets the bytes")
    func notModifiedByDate() async throws {
        try await withFixtureServer { _, client throws in
            let lastModified = try #require(try await client.get("/images/img-004.jpg").header("Last-Modified"))
            let same = try await client.get("/images/img-004.jpg", headers: [("If-Modified-Since", lastModified)])
            #expect(same.status == 304)
            let later = try await client.get(
                "/images/img-004.jpg", headers: [("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")])
            #expect(later.status == 304)
            let earlier = try await client.get(
                "/images/img-004.jpg", headers: [("If-Modified-Since", "Thu, 01 Jan 1970 00:00:01 GMT")])
            #expect(earlier.status == 200)
            #expect(!earlier.body.isEmpty)
        }
    }

    @Test("If-None-Match wins over If-Modified-Since")
    func etagWins() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get(
                "/images/img-004.jpg",
                headers: [("If-None-Match", "\"stale\""), ("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")])
            #expect(response.status == 200)
        }
    }

    @Test("an unknown image is 404")
    func unknown() async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get("/images/no-such-image.png")
            #expect(response.status == 404)
            #expect(try response.decode(APIErrorBody.self).error.status == 404)
        }
    }

    @Test(
        "path traversal is refused",
        arguments: [
            "/images/..%2Fposts.json", "/images/%2e%2e%2fposts.json", "/images/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "/images/..", "/images/.hidden", "/images/img-001.jpg%00.png", "/images/..%5Cposts.json",
            "/images/../posts.json", "/images/%2Fetc%2Fpasswd",
        ])
    func traversal(target: String) async throws {
        try await withFixtureServer { _, client throws in
            let response = try await client.get(target)
            #expect([400, 404].contains(response.status))
            #expect(!response.text.contains("\"title\""))
            #expect(!response.text.contains("root:"))
        }
    }
}
