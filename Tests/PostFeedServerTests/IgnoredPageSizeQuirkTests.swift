import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("PaginationQuirks.ignoresPageSize")
struct IgnoredPageSizeQuirkTests {
    @Test("every page answers with the whole list, whatever page and limit were asked; the numbers are as asked")
    func wholeList() async throws {
        let total = try fixturePostCount()
        try await withFixtureServer({ $0.quirks = PaginationQuirks(ignoresPageSize: true) }) { _, client throws in
            for path in ["/api/posts?page=1&limit=10", "/api/posts?page=2&limit=10", "/api/posts?page=25&limit=10"] {
                let page = try await client.get(path).decode(PostListResponse.self)
                #expect(page.posts.map(\.id) == Array(1...total), "\(path)")
                #expect(page.limit == 10 && page.total == total, "\(path)")
            }
        }
    }

    @Test("servedPostCount: fewer posts, or more than the fixtures hold, with unique ids")
    func servedPostCount() async throws {
        try await withFixtureServer({ $0.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: 30) }) { _, client throws in
            let page = try await client.get("/api/posts?page=3&limit=10").decode(PostListResponse.self)
            #expect(page.posts.map(\.id) == Array(1...30))
        }
        try await withFixtureServer({ $0.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: 1_000) }) { _, client throws in
            let page = try await client.get("/api/posts?limit=5").decode(PostListResponse.self)
            #expect(page.posts.count == 1_000)
            #expect(Set(page.posts.map(\.id)).count == 1_000)
        }
        try await withFixtureServer({ $0.quirks = PaginationQuirks(ignoresPageSize: true, servedPostCount: -3) }) { _, client throws in
            let page = try await client.get("/api/posts?limit=5").decode(PostListResponse.self)
            #expect(page.posts.isEmpty)
        }
    }
}
