import Foundation
import PostFeedHTTP
import Testing

@testable import PostFeed

/// A page longer than the page size asked for (a server that ignores it): in page-number
/// and offset styles it is cut to the page size and marked; cursor and link pages are
/// taken as long as the server makes them.
@Suite("Page decoding: pages longer than asked for")
struct PageDecoderLongPageTests {
    let base = URL(string: "http://127.0.0.1:3000")!

    func decoder(_ preset: String, pageSize: Int = 10) throws -> PageDecoder {
        PageDecoder(backend: try BackendDescription.preset(preset, baseURL: base), pageSize: pageSize)
    }

    /// json-server 0.17 items `first…first+count-1`.
    func items(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { #"{"userId":1,"id":\#($0),"title":"t\#($0)","body":"b"}"# }.joined(separator: ",")
    }

    @Test("page number: 100 posts for a page of 10 keep the first 10; the page says how many were sent")
    func pageNumberCut() throws {
        // When
        let page = try decoder("json-server").decode(
            body: Data("[\(items(100))]".utf8), headers: ["X-Total-Count": "100"],
            url: URL(string: "http://h/posts?_page=2&_limit=10")!, key: .number(2))

        // Then
        #expect(page.posts.map(\.id) == Array(1...10))
        #expect(page.sentPostCount == 100)
        #expect(page.number == 2)
        #expect(page.nextKey == .number(3), "the total is not reached by the 10 kept")
    }

    @Test("offset: the next offset counts the posts kept, so a server that honours the offset misses nothing")
    func offsetCut() throws {
        let page = try decoder("dummyjson").decode(
            body: Data(#"{"posts":[\#(items(30, from: 21))],"total":251,"skip":20,"limit":30}"#.utf8), headers: [:],
            url: URL(string: "http://h/posts?limit=10&skip=20")!, key: .offset(20))
        #expect(page.posts.map(\.id) == Array(21...30))
        #expect(page.sentPostCount == 30)
        #expect(page.nextKey == .offset(30))
    }

    @Test("a page of exactly the page size, or shorter, is not marked")
    func notLonger() throws {
        let decoder = try decoder("json-server")
        let url = URL(string: "http://h/posts?_page=1&_limit=10")!
        let full = try decoder.decode(body: Data("[\(items(10))]".utf8), headers: [:], url: url, key: .number(1))
        let short = try decoder.decode(body: Data("[\(items(3))]".utf8), headers: [:], url: url, key: .number(1))
        #expect(full.posts.count == 10 && full.sentPostCount == nil)
        #expect(short.posts.count == 3 && short.sentPostCount == nil)
    }

    @Test("posts past the cut are not decoded: a broken one there does not fail the page")
    func brokenPostPastTheCut() throws {
        let body = "[\(items(10)),{\"id\":\"not a number\"},\(items(5, from: 12))]"
        let page = try decoder("json-server").decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/posts?_page=1&_limit=10")!, key: .number(1))
        #expect(page.posts.map(\.id) == Array(1...10))
        #expect(page.sentPostCount == 16)
    }

    @Test("the end signals see the posts kept: a short page's heuristic and the total reached")
    func endSignalsAfterTheCut() throws {
        // 30 posts for the last page of 10 of a list of 30: the 10 kept reach the total
        let last = try decoder("json-server").decode(
            body: Data("[\(items(30))]".utf8), headers: ["X-Total-Count": "30"],
            url: URL(string: "http://h/posts?_page=3&_limit=10")!, key: .number(3))
        #expect(last.nextKey == nil)
        // No total, no link: 30 posts are not a short page, so the list goes on
        let noSignal = try decoder("json-server").decode(
            body: Data("[\(items(30))]".utf8), headers: [:],
            url: URL(string: "http://h/posts?_page=1&_limit=10")!, key: .number(1))
        #expect(noSignal.nextKey == .number(2))
    }

    @Test("cursor and link pages are taken as long as the server makes them")
    func cursorAndLinkUncut() throws {
        let cursorBody = #"{"posts":[\#(items(25))],"hasMore":true,"nextCursor":"c25"}"#
        let cursor = try decoder("postfeed-cursor").decode(
            body: Data(cursorBody.utf8), headers: [:], url: URL(string: "http://h/api/posts?limit=10")!, key: .cursor(nil))
        #expect(cursor.posts.count == 25)
        #expect(cursor.sentPostCount == nil)

        var backend = try BackendDescription.preset("json-server", baseURL: base)
        backend.pagination = .linkHeader(limit: "_limit")
        backend.endSignals = [.linkWithoutNext]
        let link = try PageDecoder(backend: backend, pageSize: 10).decode(
            body: Data("[\(items(25))]".utf8), headers: ["Link": #"<http://h/posts?page=2>; rel="next""#],
            url: URL(string: "http://h/posts?_limit=10")!, key: .link(nil))
        #expect(link.posts.count == 25)
        #expect(link.sentPostCount == nil)
    }

    @Test("a huge page costs the page size in posts, not the page's length")
    func hugePage() throws {
        let body = "[\(items(20_000))]"
        let page = try decoder("json-server", pageSize: 20).decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/posts?_page=1&_limit=20")!, key: .number(1))
        #expect(page.posts.count == 20)
        #expect(page.sentPostCount == 20_000)
    }
}
