import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// `/test/revise`: content that changes while the server runs, for tests of fresher content.
@Suite("/test/revise")
struct RevisionRouteTests {
    @Test("revising post 1 changes its title, page 1's body and ETag (200 to the old ETag); page 2 still answers 304")
    func reviseChangesOnlyItsPages() async throws {
        try await withTestRoutes { server, client throws in
            // Given: both pages' ETags before
            let page1 = try await client.get("/api/posts?page=1&limit=20")
            let page2 = try await client.get("/api/posts?page=2&limit=20")
            let tag1 = try #require(page1.header("ETag"))
            let tag2 = try #require(page2.header("ETag"))
            let title = try page1.decode(PostListResponse.self).posts[0].title

            // When
            let revised = try await client.request("POST", "/test/revise?ids=1,3-4")

            // Then: the answer lists the revisions
            #expect(revised.status == 200)
            let object = try revised.jsonObject() as? [String: Any]
            let revisions = object?["revisions"] as? [String: Int]
            #expect(revisions == ["1": 1, "3": 1, "4": 1], "\(revised.text)")

            // Then: page 1 changed (a 200 with the new titles), page 2 did not (304)
            let again1 = try await client.get("/api/posts?page=1&limit=20", headers: [("If-None-Match", tag1)])
            #expect(again1.status == 200)
            #expect(again1.header("ETag") != tag1)
            let posts = try again1.decode(PostListResponse.self).posts
            #expect(posts[0].title == "(revision 1) \(title)")
            #expect(posts[1].title.hasPrefix("(revision") == false)
            #expect(posts[2].title.hasPrefix("(revision 1) "))
            let again2 = try await client.get("/api/posts?page=2&limit=20", headers: [("If-None-Match", tag2)])
            #expect(again2.status == 304)

            // Then: the single post too, and a second revision counts up
            _ = try await client.request("PUT", "/test/revise?ids=1")
            let post = try await client.get("/api/posts/1").decode(Post.self)
            #expect(post.title == "(revision 2) \(title)")
            #expect(server.revise(postIDs: [1]) == [1: 3, 3: 1, 4: 1])
        }
    }

    @Test("/test/revise refuses GET, missing or bad ids, and is off without test routes")
    func reviseRefusesBadRequests() async throws {
        try await withTestRoutes { _, client throws in
            let get = try await client.get("/test/revise?ids=1")
            #expect(get.status == 405 || get.status == 404, "\(get.status)")
            for bad in ["", "?ids=", "?ids=a", "?ids=5-2", "?ids=1,,2", "?ids=-3", "?ids=0-200000"] {
                let response = try await client.request("POST", "/test/revise\(bad)")
                #expect(response.status == 400, "\(bad): \(response.status) \(response.text)")
            }
            let page = try await client.get("/api/posts?page=1&limit=20").decode(PostListResponse.self)
            #expect(page.posts[0].title.hasPrefix("(revision") == false)
        }
        try await withFixtureServer { _, client throws in
            #expect(try await client.request("POST", "/test/revise?ids=1").status == 404)
        }
    }
}
