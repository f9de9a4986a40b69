import Foundation
import PostFeedHTTP
import Testing

@testable import PostFeed

/// Pages of a feed (``PageFormat/feed``) decoded from bodies as servers send them: the
/// format from the Content-Type or the body, the next page from the document or `?paged`.
@Suite("feed pages")
struct FeedPageDecoderTests {
    let backend: BackendDescription

    init() throws {
        backend = try BackendDescription.preset("feed", baseURL: try #require(URL(string: "https://blog.example/feed/?key=k")))
    }

    private func decode(_ body: String, contentType: String?, url: String, key: PageKey = .link(nil)) throws -> Page {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return try PageDecoder(backend: backend, pageSize: 20)
            .decode(body: Data(body.utf8), headers: headers, url: URL(string: url)!, key: key)
    }

    static let rss = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
        <generator>https://wordpress.org/?v=6.8.1</generator>
        <item><title>A &amp;amp; B</title><guid>g1</guid><description>&lt;p&gt;x&lt;/p&gt;</description></item>
        <item><title>C</title><guid>g2</guid></item>
        </channel></rss>
        """

    @Test("the feed preset asks for the base URL as typed, and feed types first")
    func firstPageURL() throws {
        #expect(try backend.pageURL(for: backend.firstPageKey, pageSize: 20).absoluteString == "https://blog.example/feed/?key=k")
        #expect(backend.acceptedPageTypes.hasPrefix("application/rss+xml"))
        #expect(backend.postPath == nil)
    }

    @Test("an RSS page is followed by ?paged=N+1 of its own URL, the base query kept")
    func rssPaging() throws {
        let first = try decode(Self.rss, contentType: "application/rss+xml", url: "https://blog.example/feed/?key=k")
        #expect(first.posts.map(\.id) == ["g1", "g2"])
        #expect(first.posts.first?.bodyFormat == .html)
        #expect(first.nextKey == .link(URL(string: "https://blog.example/feed/?key=k&paged=2")!))
        let second = try decode(
            Self.rss, contentType: "text/xml", url: "https://blog.example/feed/?key=k&paged=2",
            key: .link(URL(string: "https://blog.example/feed/?key=k&paged=2")!))
        #expect(second.nextKey == .link(URL(string: "https://blog.example/feed/?key=k&paged=3")!))
    }

    @Test("an RSS feed that is not WordPress's is one page: a static feed answers every ?paged with itself")
    func staticRSS() throws {
        let plain = Self.rss.replacingOccurrences(of: "<generator>https://wordpress.org/?v=6.8.1</generator>", with: "")
        let page = try decode(plain, contentType: "application/rss+xml", url: "https://blog.example/index.xml")
        #expect(page.posts.count == 2)
        #expect(page.nextKey == nil)
    }

    @Test("Atom pages by rel=next and ends without it; JSON Feed by next_url, recognised by its body")
    func documentPaging() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>F</title><link rel="next" href="?page=2"/>
            <entry><id>e1</id><title>E</title><updated>2025-01-01T00:00:00Z</updated></entry></feed>
            """
        let page = try decode(atom, contentType: "application/atom+xml", url: "https://x.example/feed.atom")
        #expect(page.nextKey == .link(URL(string: "https://x.example/feed.atom?page=2")!))
        let last = try decode(atom.replacingOccurrences(of: #"<link rel="next" href="?page=2"/>"#, with: ""),
                              contentType: nil, url: "https://x.example/feed.atom")
        #expect(last.nextKey == nil)
        let json = #"{"version":"https://jsonfeed.org/version/1.1","title":"J","next_url":"https://x.example/f.json?p=2","items":[{"id":"1","content_text":"t"}]}"#
        let jsonPage = try decode(json, contentType: "application/json", url: "https://x.example/f.json")
        #expect(jsonPage.nextKey == .link(URL(string: "https://x.example/f.json?p=2")!))
        #expect(jsonPage.posts.first?.bodyFormat == .plain)
    }

    @Test("a body that is no feed is a decoding error naming the URL")
    func notAFeed() {
        #expect {
            _ = try decode("<html><body>login</body></html>", contentType: "text/html", url: "https://x.example/feed/")
        } throws: { error in
            guard let error = error as? RepositoryError else { return false }
            return error.code == .decoding && error.message.contains("https://x.example/feed/") && error.message.contains("not RSS, Atom or JSON Feed")
        }
    }

    @Test("an empty feed page ends the list")
    func emptyPage() throws {
        let page = try decode(#"<rss version="2.0"><channel><title>T</title></channel></rss>"#, contentType: nil, url: "https://x.example/feed/")
        #expect(page.posts.isEmpty)
        #expect(page.nextKey == nil)
    }
}
