import Foundation
import Testing

@testable import PostFeed

@Suite("Link header (RFC 8288)")
struct LinkHeaderTests {
    let base = URL(string: "http://127.0.0.1:3000/posts?_page=2&_limit=10")!

    @Test("json-server 0.17: four links in one field, comma-separated")
    func jsonServerLinks() {
        let value = #"<http://localhost:3000/posts?_page=1&_limit=10>; rel="first", <http://localhost:3000/posts?_page=1&_limit=10>; rel="prev", <http://localhost:3000/posts?_page=3&_limit=10>; rel="next", <http://localhost:3000/posts?_page=10&_limit=10>; rel="last""#
        let links = LinkHeader(parsing: value)
        #expect(links.links.count == 4)
        #expect(links.url(forRelation: "next")?.absoluteString == "http://localhost:3000/posts?_page=3&_limit=10")
        #expect(links.url(forRelation: "last")?.absoluteString == "http://localhost:3000/posts?_page=10&_limit=10")
    }

    @Test("GitHub style, no space after the comma, bare rel, any case")
    func githubStyle() {
        let value = #"<https://api.github.com/repositories/1/issues?page=2>;rel=next,<https://api.github.com/repositories/1/issues?page=5>;REL="Last""#
        let links = LinkHeader(parsing: value)
        #expect(links.url(forRelation: "next")?.absoluteString == "https://api.github.com/repositories/1/issues?page=2")
        #expect(links.url(forRelation: "last")?.absoluteString == "https://api.github.com/repositories/1/issues?page=5")
        #expect(links.url(forRelation: "NEXT") != nil)
    }

    @Test("several relations in one rel, extra spaces, other parameters")
    func multipleRelations() throws {
        let value = #"  < /posts?_page=3 >  ;  title="Next, please; now"  ;  rel = "next   last"  ; type="application/json""#
        let links = LinkHeader(parsing: value, relativeTo: base)
        #expect(links.links.count == 1)
        let link = try #require(links.links.first)
        #expect(link.relations == ["next", "last"])
        #expect(link.parameters["title"] == "Next, please; now")
        #expect(link.parameters["type"] == "application/json")
        #expect(links.url(forRelation: "last")?.absoluteString == "http://127.0.0.1:3000/posts?_page=3")
    }

    @Test("commas and semicolons inside the URL do not split links")
    func commasInsideURL() {
        let value = #"<http://h/posts?ids=1,2,3;x=1>; rel="next", <http://h/posts?ids=0>; rel="prev""#
        let links = LinkHeader(parsing: value)
        #expect(links.url(forRelation: "next")?.absoluteString == "http://h/posts?ids=1,2,3;x=1")
        #expect(links.url(forRelation: "prev")?.absoluteString == "http://h/posts?ids=0")
    }

    @Test("quoted values with escaped quotes and commas")
    func escapedQuotes() {
        let value = #"<http://h/a>; title="say \"hi\", then go"; rel="prev", <http://h/b>; rel=next"#
        let links = LinkHeader(parsing: value)
        #expect(links.links.first?.parameters["title"] == #"say "hi", then go"#)
        #expect(links.url(forRelation: "next")?.absoluteString == "http://h/b")
    }

    @Test("several Link fields are read in order")
    func severalFields() {
        let links = LinkHeader(parsing: [#"<http://h/1>; rel="first""#, #"<http://h/3>; rel="next", <http://h/9>; rel="last""#])
        #expect(links.links.map(\.target.absoluteString) == ["http://h/1", "http://h/3", "http://h/9"])
        #expect(links.url(forRelation: "next")?.absoluteString == "http://h/3")
    }

    @Test("only the first rel of a link counts")
    func firstRelWins() {
        let links = LinkHeader(parsing: #"<http://h/2>; rel="prev"; rel="next""#)
        #expect(links.url(forRelation: "next") == nil)
        #expect(links.url(forRelation: "prev") != nil)
    }

    @Test("junk is skipped, the good links kept")
    func junk() {
        let value = #"garbage, <http://h/ok>; rel="next", ; , <unterminated; rel="last""#
        let links = LinkHeader(parsing: value)
        #expect(links.url(forRelation: "next")?.absoluteString == "http://h/ok")
        #expect(links.url(forRelation: "last") == nil)
        #expect(LinkHeader(parsing: "").links.isEmpty)
        #expect(LinkHeader(parsing: [String]()).url(forRelation: "next") == nil)
    }

    @Test("a relative target resolves against the response URL")
    func relative() {
        let links = LinkHeader(parsing: #"<?_page=3&_limit=10>; rel="next""#, relativeTo: base)
        #expect(links.url(forRelation: "next")?.absoluteString == "http://127.0.0.1:3000/posts?_page=3&_limit=10")
    }
}
