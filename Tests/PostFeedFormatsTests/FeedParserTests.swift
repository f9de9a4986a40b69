import Foundation
import PostFeedFormats
import Testing

@Suite("RSS 2.0")
struct RSSParserTests {
    @Test("every field of the specification's sample channel")
    func fullChannel() throws {
        let feed = try FeedFixtures.parse("rss2-full.xml", contentType: "application/rss+xml")
        #expect(feed.format == .rss)
        #expect(feed.title == "Liftoff News")
        #expect(feed.homeURL?.absoluteString == "http://liftoff.msfc.nasa.gov/")
        #expect(feed.nextPageURL == nil)
        try #require(feed.items.count == 4)

        let star = feed.items[0]
        #expect(star.id == "http://liftoff.msfc.nasa.gov/2003/06/03.html#item573")
        #expect(star.title == "Star City")
        #expect(star.link?.absoluteString == "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp")
        #expect(star.author == "Jane Doe")
        #expect(star.published == FeedFixtures.date("2003-06-03T09:39:21Z"))
        #expect(star.imageURL?.absoluteString == "http://liftoff.msfc.nasa.gov/images/star-city.jpg")
        guard case .html(let content)? = star.content else {
            Issue.record("content:encoded should be the content, as HTML: \(String(describing: star.content))")
            return
        }
        #expect(content.contains("Russia&#8217;s"))
        #expect(star.summary?.original.hasPrefix("How do Americans") == true)
        let body = star.renderedBody()
        #expect(body.body == "How do Americans get ready to work with Russians aboard the International Space Station?\n\nThey take a crash course in culture, language and protocol at Russia’s Star City [1].")
        #expect(body.links == ["http://howe.iki.rssi.ru/GCTC/gctc_e.htm"])

        let eclipse = feed.items[1]
        #expect(eclipse.title == nil)
        #expect(eclipse.link == nil)
        #expect(eclipse.summary == nil)
        #expect(eclipse.imageURL?.absoluteString == "http://liftoff.msfc.nasa.gov/images/eclipse.png")
        #expect(eclipse.renderedBody().text.contains("partial eclipse of the Sun [1]"))

        let engine = feed.items[2]
        #expect(engine.author == "John Smith")
        #expect(engine.imageURL == nil, "an audio enclosure is not an image")
        #expect(engine.updated == nil)

        let laundry = feed.items[3]
        #expect(laundry.imageURL?.absoluteString == "http://liftoff.msfc.nasa.gov/images/laundry-thumb.jpg", "a video's thumbnail, from media:group")
    }

    @Test("a WordPress feed: entities in titles, CDATA, block-editor HTML, pages")
    func wordPress() throws {
        let page1 = try FeedFixtures.parse("wordpress-page1.xml", baseURL: "https://blog.example.org/feed/?paged=1")
        #expect(page1.title == "Example Blog – Notes & Essays")
        #expect(page1.homeURL?.absoluteString == "https://blog.example.org")
        #expect(page1.nextPageURL == nil, "WordPress pages by ?paged=N, not by a link")
        try #require(page1.items.count == 2)
        let first = page1.items[0]
        #expect(first.id == "https://blog.example.org/?p=123")
        #expect(first.title == "It’s a “quoted” title & more")
        #expect(first.author == "Ana Lima")
        #expect(first.published == FeedFixtures.date("2025-06-02T14:05:09Z"))
        #expect(first.summary?.original == "A short excerpt with an entity&#8230; [&#8230;]")
        let body = first.renderedBody()
        #expect(body.body == """
            FIRST THINGS

            Paragraph one with bold and a relative link [1].

            • Apples
            • Pears
              ◦ Conference

            > Quoted wisdom.

            let x = 1
                    indented()

            [image: A photo]
            """)
        #expect(body.links == ["https://blog.example.org/about/"])
        #expect(body.images == ["https://blog.example.org/wp-content/uploads/2025/06/photo.jpg"])

        let page2 = try FeedFixtures.parse("wordpress-page2.xml", baseURL: "https://blog.example.org/feed/?paged=2")
        #expect(page2.items.map(\.id) == ["https://blog.example.org/?p=1"])
    }

    @Test("real-world quirks: ISO-8859-1, CDATA, missing guid, relative links, undeclared entity and prefix, date variants")
    func quirks() throws {
        let feed = try FeedFixtures.parse("quirks-latin1.xml", baseURL: "https://cafe.example.com/feed.xml")
        #expect(feed.title == "Café du Monde & Co")
        #expect(feed.homeURL?.absoluteString == "https://cafe.example.com/")
        try #require(feed.items.count == 3)

        let creme = feed.items[0]
        #expect(creme.title == "Crème brûlée <recipe>")
        #expect(creme.id == "https://cafe.example.com/recipes/creme-brulee", "no guid: the link")
        #expect(creme.link?.absoluteString == "https://cafe.example.com/recipes/creme-brulee")
        #expect(creme.published == FeedFixtures.date("2025-06-05T01:30:00Z"), "two-digit year, PDT, no seconds")
        let body = creme.renderedBody()
        #expect(body.body == "Custard & caramel — tips [1] [image: Crème]")
        #expect(body.links == ["https://cafe.example.com/tips"])
        #expect(body.images == ["https://cafe.example.com/recipes/img/creme.jpg"])

        let bare = feed.items[1]
        #expect(bare.id.hasPrefix("hash:"), "no guid, no link: a hash of the content")
        #expect(bare.link == nil)
        #expect(bare.published == FeedFixtures.date("2025-06-04T12:00:00Z"), "no weekday, EST")
        #expect(bare.imageURL?.absoluteString == "https://cafe.example.com/images/undeclared.png", "an undeclared media: prefix still counts")
        #expect(bare.renderedBody().body.hasPrefix("Only words"))

        let iso = feed.items[2]
        #expect(iso.id == "quirk-3", "a guid is trimmed")
        #expect(iso.published == FeedFixtures.date("2025-06-04T10:00:00Z"))
        #expect(iso.imageURL == nil, "a file: URL is never kept")
    }

    @Test("the hash identifier is stable across parses")
    func stableHash() throws {
        let first = try FeedFixtures.parse("quirks-latin1.xml")
        let second = try FeedFixtures.parse("quirks-latin1.xml")
        #expect(first.items[1].id == second.items[1].id)
    }

    @Test("RSS 1.0 (RDF): items beside the channel")
    func rdf() throws {
        let body = Data("""
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="http://www.xml.com/xml/news.rss"><title>XML.com</title><link>http://xml.com/pub</link></channel>
              <item rdf:about="http://xml.com/pub/2000/08/09/xslt/xslt.html">
                <title>Processing Inclusions with XSLT</title>
                <link>http://xml.com/pub/2000/08/09/xslt/xslt.html</link>
                <dc:date>2000-08-09T12:00:00Z</dc:date>
              </item>
            </rdf:RDF>
            """.utf8)
        let feed = try FeedParser.parse(body, contentType: "application/rdf+xml", baseURL: nil)
        #expect(feed.title == "XML.com")
        #expect(feed.items.map(\.id) == ["http://xml.com/pub/2000/08/09/xslt/xslt.html"])
        #expect(feed.items.first?.published == FeedFixtures.date("2000-08-09T12:00:00Z"))
    }

    @Test("raw markup inside a description is kept as HTML")
    func rawMarkupDescription() throws {
        let body = Data("""
            <rss version="2.0"><channel><title>t</title>
            <item><guid>raw</guid><description>Intro <p>Raw <b>bold</b> <a href="https://x.example/">x</a></p></description></item>
            </channel></rss>
            """.utf8)
        let feed = try FeedParser.parse(body, contentType: nil, baseURL: nil)
        let item = try #require(feed.items.first)
        #expect(item.renderedBody().text == "Intro\n\nRaw bold x [1]\n\n[1] https://x.example/")
    }

    @Test("an RSS channel's atom:link rel=next pages it")
    func rssNextLink() throws {
        let body = Data("""
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>t</title>
            <atom:link rel="next" href="/feed?page=2"/><item><guid>a</guid></item></channel></rss>
            """.utf8)
        let feed = try FeedParser.parse(body, contentType: nil, baseURL: URL(string: "https://example.com/feed"))
        #expect(feed.nextPageURL?.absoluteString == "https://example.com/feed?page=2")
    }
}

@Suite("Atom")
struct AtomParserTests {
    @Test("every field of RFC 4287's example, xml:base and rel=next")
    func pageOne() throws {
        let feed = try FeedFixtures.parse("atom-page1.xml", contentType: "application/atom+xml")
        #expect(feed.format == .atom)
        #expect(feed.title == "dive into mark")
        #expect(feed.homeURL?.absoluteString == "http://example.org/")
        #expect(feed.nextPageURL?.absoluteString == "http://example.org/feed.atom?page=2")
        try #require(feed.items.count == 2)

        let snapshot = feed.items[0]
        #expect(snapshot.id == "tag:example.org,2003:3.2397")
        #expect(snapshot.title == "Atom draft-07 snapshot")
        #expect(snapshot.link?.absoluteString == "http://example.org/2005/04/02/atom")
        #expect(snapshot.author == "Sam Ruby")
        #expect(snapshot.published == FeedFixtures.date("2003-12-13T12:29:29Z"))
        #expect(snapshot.updated == FeedFixtures.date("2005-07-31T12:29:29Z"))
        #expect(snapshot.imageURL?.absoluteString == "http://example.org/images/atom-snapshot.png")
        guard case .html(let xhtml)? = snapshot.content else {
            Issue.record("xhtml content should be kept as markup")
            return
        }
        #expect(xhtml.contains("<i>[Update: The Atom draft is finished.]</i>"))
        let body = snapshot.renderedBody()
        #expect(body.body == "[Update: The Atom draft is finished.]\n\nSee the notes [1].")
        #expect(body.links == ["http://diveintomark.org/notes"])

        let cafe = feed.items[1]
        #expect(cafe.title == "Café society", "an html title: markup dropped, entities decoded")
        #expect(cafe.link?.absoluteString == "http://example.org/2005/04/01/cafe")
        #expect(cafe.author == "Mark Pilgrim", "the feed's author")
        #expect(cafe.published == FeedFixtures.date("2005-04-01T09:00:00.25Z"), "updated when there is no published")
        #expect(cafe.summary == .text("Plain summary & nothing more."))
        #expect(cafe.renderedBody().body == "Coffee & talk.")
        #expect(cafe.imageURL?.absoluteString == "http://example.org/images/cafe-thumb.jpg")
    }

    @Test("the last page has no next link")
    func lastPage() throws {
        let feed = try FeedFixtures.parse("atom-page2.xml")
        #expect(feed.nextPageURL == nil)
        #expect(feed.items.map(\.id) == ["tag:example.org,2003:3.1000"])
        #expect(feed.items.first?.renderedBody().body == "The last one.")
    }
}

@Suite("JSON Feed")
struct JSONFeedParserTests {
    @Test("every field of JSON Feed 1.1, and next_url")
    func pageOne() throws {
        let feed = try FeedFixtures.parse("jsonfeed-page1.json", contentType: "application/feed+json", baseURL: "https://example.org/feed.json")
        #expect(feed.format == .jsonFeed)
        #expect(feed.title == "My Example Feed & Friends")
        #expect(feed.homeURL?.absoluteString == "https://example.org/")
        #expect(feed.nextPageURL?.absoluteString == "https://example.org/feed.json?page=2")
        try #require(feed.items.count == 3)

        let second = feed.items[0]
        #expect(second.id == "2")
        #expect(second.title == nil)
        #expect(second.content == .text("This is a second item."))
        #expect(second.author == "Feed Author")
        #expect(second.published == FeedFixtures.date("2025-06-02T17:30:00Z"))
        #expect(second.imageURL?.absoluteString == "https://example.org/images/second.jpg")
        #expect(second.link?.absoluteString == "https://example.org/second-item")

        let first = feed.items[1]
        #expect(first.title == "Hello, world’s first")
        #expect(first.author == "Item Author")
        #expect(first.summary == .text("A greeting."))
        #expect(first.updated == FeedFixtures.date("2025-06-01T09:15:30.5Z"))
        #expect(first.imageURL?.absoluteString == "https://example.org/images/banner.png")
        #expect(first.renderedBody().text == "Hello, world [1]!\n\n[1] https://example.org/world")

        let numeric = feed.items[2]
        #expect(numeric.id == "42")
        #expect(numeric.imageURL?.absoluteString == "https://example.org/images/attached.webp")
    }

    @Test("JSON Feed 1.0's author, and no next_url on the last page")
    func versionOne() throws {
        let feed = try FeedFixtures.parse("jsonfeed-page2.json")
        #expect(feed.nextPageURL == nil)
        #expect(feed.items.first?.author == "Old Style Author")
    }

    @Test("JSON that is not a JSON Feed is refused with a reason")
    func notJSONFeed() throws {
        let missingItems = Data(#"{"version": "https://jsonfeed.org/version/1.1", "title": "x"}"#.utf8)
        let parseMissing = { try FeedParser.parse(missingItems, contentType: "application/feed+json", baseURL: nil) }
        let missing = try #require(throws: FeedParseError.self, performing: parseMissing)
        #expect(missing.kind == .malformed)

        let broken = Data(#"{"version": "https://jsonfeed.org/version/1.1", "items": [}"#.utf8)
        let parseBroken = { try FeedParser.parse(broken, contentType: "application/feed+json", baseURL: nil) }
        let syntax = try #require(throws: FeedParseError.self, performing: parseBroken)
        #expect(syntax.kind == .malformed)
        #expect(syntax.line == 1)
    }
}
