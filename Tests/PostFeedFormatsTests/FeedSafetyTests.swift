import Foundation
import PostFeedFormats
import Testing

/// Issue 32 item 5: no network, no external entities, bounded expansion and depth.
@Suite("Hostile XML")
struct FeedSafetyTests {
    @Test("a billion-laughs document is refused with a clear error, nothing expanded")
    func billionLaughs() throws {
        let body = try FeedFixtures.data("hostile/billion-laughs.xml")
        let parse = { try FeedParser.parse(body, contentType: "application/rss+xml", baseURL: URL(string: "https://evil.example/feed")) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .refusedEntities)
        #expect(error.description.contains("https://evil.example/feed"))
        #expect(error.description.contains("declares entities"))
    }

    @Test(
        "an entity naming file:///etc/passwd is refused and shows nothing of the file",
        arguments: ["hostile/external-entity.xml", "hostile/parameter-entity.xml"])
    func externalEntity(name: String) throws {
        let body = try FeedFixtures.data(name)
        let parse = { try FeedParser.parse(body, contentType: nil, baseURL: nil) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .refusedEntities)
        #expect(!error.description.contains("root:"))
        #expect(!error.message.contains("/bin/"))
    }

    @Test("an external DTD is never loaded; the feed is still read")
    func externalDTD() throws {
        let feed = try FeedFixtures.parse("hostile/external-dtd.xml")
        #expect(feed.title == "External DTD")
        try #require(feed.items.count == 1)
        let item = feed.items[0]
        #expect(item.id == "dtd-1")
        let text = item.renderedBody().text
        #expect(!text.contains("root:"))
        #expect(text.hasPrefix("Words"))
    }

    @Test("nesting deeper than the parser's limit is refused as too deep")
    func deepNesting() throws {
        let depth = 100_000
        let body = Data(("<rss version=\"2.0\"><channel>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</channel></rss>").utf8)
        let parse = { try FeedParser.parse(body, contentType: nil, baseURL: nil) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .tooDeep)
    }

    @Test("deeply nested JSON is refused as too deep")
    func deepJSON() throws {
        let depth = 10_000
        let body = Data((#"{"version":"https://jsonfeed.org/version/1.1","items":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}").utf8)
        let parse = { try FeedParser.parse(body, contentType: nil, baseURL: nil) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .tooDeep)
    }

    @Test("deeply nested HTML renders, bounded, without exhausting the stack")
    func deepHTML() {
        let depth = 50_000
        let html = "<p>top</p>" + String(repeating: "<blockquote><ul><li>", count: depth) + "bottom"
            + String(repeating: "</li></ul></blockquote>", count: depth)
        let rendered = HTMLText.render(html)
        #expect(rendered.body.hasPrefix("top"))
        // libxml2 stops at 256 levels: what is deeper is not shown, and no line is indented
        // by more than the layout's bound.
        let widest = rendered.body.split(separator: "\n").map(\.count).max() ?? 0
        #expect(widest < 200)

        let shallow = String(repeating: "<blockquote>", count: 30) + "thirty" + String(repeating: "</blockquote>", count: 30)
        #expect(HTMLText.render(shallow).body == String(repeating: "> ", count: 24) + "thirty")
    }

    @Test("a document that is not XML is malformed, with a line")
    func malformed() throws {
        let body = Data("<rss><channel><title>x</title>".utf8)
        // Recovered: a truncated feed still gives what it holds.
        let feed = try FeedParser.parse(body, contentType: "application/rss+xml", baseURL: nil)
        #expect(feed.title == "x")

        let garbage = Data("this is not xml at all".utf8)
        let parse = { try FeedParser.parse(garbage, contentType: "application/rss+xml", baseURL: nil) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .malformed)
    }
}
