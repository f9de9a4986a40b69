import Foundation
import PostFeedFormats
import Testing

@Suite("Recognising a feed: content type, then body")
struct FeedFormatTests {
    @Test(
        "each format by its body alone",
        arguments: [
            ("rss2-full.xml", FeedFormat.rss), ("wordpress-page1.xml", .rss), ("quirks-latin1.xml", .rss),
            ("atom-page1.xml", .atom), ("atom-page2.xml", .atom), ("jsonfeed-page1.json", .jsonFeed), ("jsonfeed-page2.json", .jsonFeed),
        ])
    func byBody(name: String, format: FeedFormat) throws {
        let body = try FeedFixtures.data(name)
        #expect(FeedFormat.detect(contentType: nil, body: body) == format)
        #expect(FeedFormat.detect(contentType: "text/xml; charset=utf-8", body: body) == format)
        #expect(FeedFormat.detect(contentType: "application/octet-stream", body: body) == format)
    }

    @Test(
        "each format by its content type when the body does not show it",
        arguments: [
            ("application/rss+xml", FeedFormat.rss), ("application/atom+xml; charset=utf-8", .atom),
            ("Application/Feed+JSON", .jsonFeed), ("application/rdf+xml", .rss),
        ])
    func byContentType(contentType: String, format: FeedFormat) {
        // UTF-16 with a BOM: the sniffer reads no further, the media type decides.
        let body: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00]
        #expect(FeedFormat.detect(contentType: contentType, body: body) == format)
        #expect(FeedFormat.detect(contentType: contentType, body: [UInt8]()) == format)
    }

    @Test("a body plainly of another format wins over a wrong feed media type")
    func bodyOverridesWrongType() throws {
        let atom = try FeedFixtures.data("atom-page1.xml")
        #expect(FeedFormat.detect(contentType: "application/rss+xml", body: atom) == .atom)
    }

    @Test("a prolog of comments, processing instructions and a doctype is skipped")
    func prolog() {
        let body = Data("""
            \u{FEFF}<?xml version="1.0"?>
            <!-- generated -->
            <?xml-stylesheet href="feed.xsl" type="text/xsl"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91"><channel/></rss>
            """.utf8)
        #expect(FeedFormat.detect(contentType: nil, body: body) == .rss)
    }

    @Test("HTML, plain JSON and nothing are not feeds", arguments: ["<!doctype html><html><body>hi</body></html>", #"{"posts": []}"#, "", "   "])
    func notFeeds(body: String) {
        #expect(FeedFormat.detect(contentType: "text/html", body: Array(body.utf8)) == nil)
        #expect(FeedFormat.detect(contentType: nil, body: Array(body.utf8)) == nil)
    }

    @Test("a body that is not a feed is a notAFeed error naming the URL")
    func notAFeedError() throws {
        let body = Data("<html><body>Not here</body></html>".utf8)
        let url = try #require(URL(string: "https://example.org/page"))
        let parse = { try FeedParser.parse(body, contentType: "text/html", baseURL: url) }
        let error = try #require(throws: FeedParseError.self, performing: parse)
        #expect(error.kind == .notAFeed)
        #expect(error.description.contains("https://example.org/page"))
    }
}
