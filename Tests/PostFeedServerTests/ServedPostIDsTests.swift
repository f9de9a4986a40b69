import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Issue 32, item 1: the fixture server can serve the ids other backends send.
@Suite("string post ids from the fixture server")
struct ServedPostIDsTests {
    @Test("postIDs = .strings: t3_ ids, 21-digit numbers as JSON numbers and as strings; the post route takes them")
    func strings() async throws {
        try await withFixtureServer({ $0.postIDs = .strings }) { _, client throws in
            let page = try await client.get("/api/posts?limit=3")
            let text = String(decoding: page.body, as: UTF8.self)
            #expect(text.contains(#""id":"t3_1""#), "\(text)")
            #expect(text.contains(#""id":109876543210000000002"#), "a number beyond 2^64: \(text)")
            #expect(text.contains(#""id":"109876543210000000003""#), "\(text)")
            let json = try JSONValue.parse(page.body)
            let ids = try (json["posts"]?.arrayValue ?? []).map { try PostID(json: $0["id"] ?? .null) }
            #expect(ids == ["t3_1", "109876543210000000002", "109876543210000000003"])

            for id in ids {
                let post = try await client.get("/api/posts/\(id.text)")
                #expect(post.status == 200, "\(id)")
                let served = try PostID(json: JSONValue.parse(post.body)["id"] ?? .null)
                #expect(served == id)
            }
            #expect(try await client.get("/api/posts/1").status == 404, "the fixture id is not what this server serves")
            #expect(try await client.get("/api/posts/t3_zz").status == 404)
        }
    }

    @Test("the default serves the fixtures' integer ids")
    func numbers() async throws {
        try await withFixtureServer { _, client throws in
            let text = String(decoding: try await client.get("/api/posts?limit=2").body, as: UTF8.self)
            #expect(text.contains(#""id":1,"#) && text.contains(#""id":2,"#), "\(text)")
        }
    }
}
