import Foundation
import PostFeedServer
import Testing

@Suite("Flavor: json-server 1.x")
struct JSONServerV1FlavorTests {
    private func withFlavor<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (RunningFixtureServer, RawHTTPClient) async throws -> T
    ) async throws -> T {
        try await withFixtureServer({ $0.flavor = .jsonServerV1 }, body)
    }

    @Test("_page/_per_page gives the envelope with first/prev/next/last/pages/items/data")
    func firstPage() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let response = try await client.get("/posts?_page=1&_per_page=25")
            let body = try response.object()
            #expect(body["first"] as? Int == 1)
            #expect(body["prev"] is NSNull)
            #expect(body["next"] as? Int == 2)
            #expect(body["last"] as? Int == (total + 24) / 25)
            #expect(body["pages"] as? Int == (total + 24) / 25)
            #expect(body["items"] as? Int == total)
            let data = try #require(body["data"] as? [[String: Any]])
            #expect(ids(data) == Array(1...25))
            #expect(response.header("X-Total-Count") == nil)
            #expect(response.header("Link") == nil)
            let keys = response.text.components(separatedBy: "\n").prefix(8).joined()
            #expect(keys.range(of: "\"first\".*\"prev\".*\"next\".*\"last\".*\"pages\".*\"items\".*\"data\"", options: .regularExpression) != nil)
        }
    }

    @Test("ids are strings, as json-server 1.x normalises them")
    func stringIDs() async throws {
        try await withFlavor { _, client throws in
            let data = try #require(try await client.get("/posts?_page=1").object()["data"] as? [[String: Any]])
            #expect(data.first?["id"] as? String == "1")
            #expect(data.first?["userId"] as? Int == 1)
        }
    }

    @Test("the last page has next null; a page past the end is clamped to the last page")
    func endOfList() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let pages = (total + 9) / 10
            let last = try await client.get("/posts?_page=\(pages)").object()
            #expect(last["next"] is NSNull)
            #expect(last["prev"] as? Int == pages - 1)
            let beyond = try await client.get("/posts?_page=\(pages + 5)")
            #expect(beyond.status == 200)
            let body = try beyond.object()
            #expect(body["next"] is NSNull)
            #expect(ids(try #require(body["data"] as? [[String: Any]])) == Array(((pages - 1) * 10 + 1)...total))
        }
    }

    @Test("_per_page defaults to 10; without _page the whole array; _limit and _start slice")
    func slices() async throws {
        let total = try PeerData.jsonPlaceholderPostCount()
        try await withFlavor { _, client throws in
            let page2 = try await client.get("/posts?_page=2").object()
            #expect(ids(try #require(page2["data"] as? [[String: Any]])) == Array(11...20))
            #expect(ids(try await client.get("/posts").objects()) == Array(1...total))
            #expect(ids(try await client.get("/posts?_limit=4").objects()) == [1, 2, 3, 4])
            #expect(ids(try await client.get("/posts?_start=10&_end=12").objects()) == [11, 12])
            #expect(ids(try await client.get("/posts?_page=abc").objects()) == Array(1...total))
        }
    }

    @Test("/posts/{id} returns the item or 404 Not Found")
    func item() async throws {
        try await withFlavor { _, client throws in
            #expect(try await client.get("/posts/3").object()["id"] as? String == "3")
            let miss = try await client.get("/posts/3000")
            #expect(miss.status == 404)
            #expect(miss.text == "Not Found")
        }
    }
}
