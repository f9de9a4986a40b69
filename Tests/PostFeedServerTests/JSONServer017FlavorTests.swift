import Foundation
import PostFeedServer
import Testing

@Suite("Flavor: json-server 0.17")
struct JSONServer017FlavorTests {
    private func withFlavor<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (RunningFixtureServer, RawHTTPClient) async throws -> T
    ) async throws -> T {
        try await withFixtureServer({ $0.flavor = .jsonServer017 }, body)
    }

    @Test("_page/_limit gives a bare array, X-Total-Count and first/next/last links on page 1")
    func firstPage() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { server, client throws in
            let response = try await client.get("/posts?_page=1&_limit=10")
            let base = server.baseURL.absoluteString
            #expect(response.status == 200)
            #expect(ids(try response.objects()) == Array(1...10))
            #expect(response.header("X-Total-Count") == String(total))
            #expect(response.header("Access-Control-Expose-Headers") == "X-Total-Count, Link")
            let links = parseLinks(response.header("Link"))
            #expect(links["first"] == "\(base)/posts?_page=1&_limit=10")
            #expect(links["prev"] == nil)
            #expect(links["next"] == "\(base)/posts?_page=2&_limit=10")
            #expect(links["last"] == "\(base)/posts?_page=\((total + 9) / 10)&_limit=10")
            #expect(try response.objects().first?["userId"] as? Int == 1)
        }
    }

    @Test("a middle page links prev and next; the last page has no next")
    func middleAndLast() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let middle = parseLinks(try await client.get("/posts?_page=3&_limit=10").header("Link"))
            #expect(middle["prev"]?.hasSuffix("/posts?_page=2&_limit=10") == true)
            #expect(middle["next"]?.hasSuffix("/posts?_page=4&_limit=10") == true)
            let lastPage = (total + 29) / 30
            let last = try await client.get("/posts?_page=\(lastPage)&_limit=30")
            #expect(ids(try last.objects()) == Array(((lastPage - 1) * 30 + 1)...total))
            let links = parseLinks(last.header("Link"))
            #expect(links["next"] == nil)
            #expect(links["last"]?.hasSuffix("_page=\(lastPage)&_limit=30") == true)
        }
    }

    @Test("past the last page: 200, an empty array, an empty Link, X-Total-Count still set")
    func pastTheEnd() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let response = try await client.get("/posts?_page=99&_limit=10")
            #expect(response.status == 200)
            #expect(try response.objects().isEmpty)
            #expect(response.headerValues("Link") == [""])
            #expect(response.header("X-Total-Count") == String(total))
        }
    }

    @Test("_limit defaults to 10; a bad _page is page 1")
    func defaults() async throws {
        try await withFlavor { _, client throws in
            #expect(ids(try await client.get("/posts?_page=2").objects()) == Array(11...20))
            #expect(ids(try await client.get("/posts?_page=abc&_limit=5").objects()) == Array(1...5))
            #expect(ids(try await client.get("/posts?_page=0&_limit=5").objects()) == Array(1...5))
        }
    }

    @Test("without _page: the whole array, or _start/_end and _start/_limit slices")
    func slices() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let all = try await client.get("/posts")
            #expect(ids(try all.objects()) == Array(1...total))
            #expect(all.header("X-Total-Count") == nil)
            #expect(all.header("Link") == nil)
            let limited = try await client.get("/posts?_limit=3")
            #expect(ids(try limited.objects()) == [1, 2, 3])
            #expect(limited.header("X-Total-Count") == String(total))
            #expect(limited.header("Access-Control-Expose-Headers") == "X-Total-Count")
            #expect(ids(try await client.get("/posts?_start=5&_end=8").objects()) == [6, 7, 8])
            #expect(ids(try await client.get("/posts?_start=5&_limit=2").objects()) == [6, 7])
        }
    }

    @Test("/posts/{id} returns the item or 404 with {}")
    func item() async throws {
        try await withFlavor { _, client throws in
            let hit = try await client.get("/posts/7")
            #expect(try hit.object()["id"] as? Int == 7)
            let miss = try await client.get("/posts/9999")
            #expect(miss.status == 404)
            #expect(miss.text == "{}")
        }
    }

    @Test("Express's weak ETag revalidates; the PostFeed API is not served")
    func etagAndScope() async throws {
        try await withFlavor { _, client throws in
            let first = try await client.get("/posts?_page=1")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("W/\""))
            #expect(first.header("Cache-Control") == "no-cache")
            #expect(try await client.get("/posts?_page=1", headers: [("If-None-Match", etag)]).status == 304)
            #expect(try await client.get("/api/posts").status == 404)
        }
    }
}
