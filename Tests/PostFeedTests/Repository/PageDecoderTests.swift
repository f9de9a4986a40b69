import Foundation
import PostFeedHTTP
import Testing

@testable import PostFeed

@Suite("Page decoding")
struct PageDecoderTests {
    let base = URL(string: "http://127.0.0.1:3000")!

    func decoder(_ preset: String, pageSize: Int = 10) throws -> PageDecoder {
        PageDecoder(backend: try BackendDescription.preset(preset, baseURL: base), pageSize: pageSize)
    }

    func items(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { #"{"userId":\#(($0 + 9) / 10),"id":\#($0),"title":"t\#($0)","body":"b"}"# }
            .joined(separator: ",")
    }

    // MARK: Posts

    @Test("PostFeed posts: every field, relative image resolved, dates with and without fractions")
    func postfeedPost() throws {
        let decoder = try decoder("postfeed")
        let body = #"""
            {"posts":[
              {"id":1,"title":"One","body":"B","author":"Ada","imageUrl":"/images/img-001.jpg","createdAt":"2025-05-30T10:00:00Z","popularity":0.5},
              {"id":2,"title":"Two","body":"B","author":"Bo","createdAt":"2025-05-29T10:00:00.250Z","popularity":1},
              {"id":3,"title":"Three","content":"C","imageUrl":"https://cdn.example/x.png"}
            ],"page":1,"limit":3,"total":3,"totalPages":1,"hasMore":false,"nextCursor":null}
            """#
        let page = try decoder.decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://127.0.0.1:3000/api/posts?page=1&limit=10")!,
            key: .number(1))
        #expect(page.posts.map(\.id) == [1, 2, 3])
        #expect(page.posts[0].imageURL == "http://127.0.0.1:3000/images/img-001.jpg")
        #expect(page.posts[0].author == "Ada")
        #expect(page.posts[0].createdAt == Post.parseDate("2025-05-30T10:00:00Z"))
        #expect(page.posts[1].imageURL == nil)
        #expect(page.posts[1].createdAt != nil)
        #expect(page.posts[1].popularity == 1)
        #expect(page.posts[2].body == "C")
        #expect(page.posts[2].author == nil)
        #expect(page.posts[2].imageURL == "https://cdn.example/x.png")
        #expect(page.nextKey == nil)
        #expect(page.totalCount == 3)
    }

    @Test("JSONPlaceholder and DummyJSON posts list without image, author name or date")
    func peerPosts() throws {
        let placeholder = try decoder("json-server").decode(
            body: Data("[\(items(2))]".utf8), headers: [:], url: URL(string: "http://h/posts?_page=1&_limit=10")!,
            key: .number(1))
        #expect(placeholder.posts[0] == Post(id: 1, title: "t1", body: "b", author: "user 1"))

        let dummyBody = #"""
            {"posts":[{"id":1,"title":"His mother","body":"B","tags":["history"],"reactions":{"likes":192,"dislikes":25},"views":305,"userId":121}],
             "total":251,"skip":0,"limit":1}
            """#
        let dummy = try decoder("dummyjson").decode(
            body: Data(dummyBody.utf8), headers: [:], url: URL(string: "http://h/posts?limit=10&skip=0")!, key: .offset(0))
        let post = try #require(dummy.posts.first)
        #expect(post.author == "user 121")
        #expect(post.imageURL == nil)
        #expect(post.createdAt == nil)
    }

    @Test("author objects, string ids, image fallbacks and custom mappings")
    func fallbacks() throws {
        var backend = try BackendDescription.preset("json-server", baseURL: URL(string: "http://h/v1/")!)
        backend.fields.image = ["thumbnail", "imageUrl"]
        let decoder = PageDecoder(backend: backend, pageSize: 10)
        let body = #"""
            [{"id":"7","name":"Seven","text":"T","author":{"firstName":"Ada","lastName":"L"},"thumbnail":"pics/7.png","created_at":1714557600},
             {"id":8,"title":"Eight","author":{"username":"bo"},"imageUrl":"","date":"2024-05-01T10:00:00+02:00"}]
            """#
        let page = try decoder.decode(body: Data(body.utf8), headers: [:], url: URL(string: "http://h/v1/posts")!, key: .number(1))
        #expect(page.posts[0].id == 7)
        #expect(page.posts[0].title == "Seven")
        #expect(page.posts[0].body == "T")
        #expect(page.posts[0].author == "Ada L")
        #expect(page.posts[0].imageURL == "http://h/v1/pics/7.png")
        #expect(page.posts[0].createdAt == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(page.posts[1].author == "bo")
        // An empty image URL is kept, so the reader is told the image is unavailable rather
        // than nothing (FeedClient.image(for:) reports it as .unsupportedURL).
        #expect(page.posts[1].imageURL == "", "an empty image URL is kept, to be reported")
        #expect(page.posts[1].createdAt == Date(timeIntervalSince1970: 1_714_550_400))
    }

    // MARK: Errors

    @Test("a page none of whose posts decodes fails, naming the post, the page, the URL and the field")
    func missingField() throws {
        let url = URL(string: "http://127.0.0.1:3000/posts?_page=2&_limit=10")!
        let body = #"[{"id":11,"body":"no title"},{"id":12,"body":"nor here"}]"#
        let error = #expect(throws: RepositoryError.self) {
            try decoder("json-server").decode(body: Data(body.utf8), headers: [:], url: url, key: .number(2))
        }
        #expect(error?.code == .decoding)
        #expect(error?.url == url)
        #expect(error?.page == .number(2))
        #expect(error?.message == #"post #1 in page 2 of http://127.0.0.1:3000/posts?_page=2&_limit=10: field "title" missing (tried "title", "name")"#)
        #expect(error?.description == error?.message, "the description does not repeat the page and URL")
    }

    @Test("mistyped fields and bodies where no post decodes", arguments: [
        (#"[{"id":1.5,"title":"a"}]"#, #"post #1 in page 1 of http://h/p: field "id" is 1.5, expected a string or a whole number (no fraction or exponent)"#),
        (#"[{"id":"","title":"a"}]"#, #"post #1 in page 1 of http://h/p: field "id" is "", which is empty (expected a post id)"#),
        (#"[{"id":1,"title":5}]"#, #"post #1 in page 1 of http://h/p: field "title" is a number, expected a string"#),
        (#"[7, {"id":true,"title":"a"}]"#, #"post #1 in page 1 of http://h/p: expected an object, got a number"#),
        (#"{"posts":[]}"#, #"page 1 of http://h/p: the body is an object, expected an array of posts; check that the base URL and the backend describe this API"#),
        ("<html>", #"page 1 of http://h/p: the body is not JSON: it is an HTML page starting "<html>"; check that the base URL and the backend describe this API"#),
        ("", #"page 1 of http://h/p: the body is empty, expected JSON; check that the base URL and the backend describe this API"#),
    ])
    func mistyped(body: String, message: String) throws {
        let error = #expect(throws: RepositoryError.self) {
            try decoder("json-server").decode(body: Data(body.utf8), headers: [:], url: URL(string: "http://h/p")!, key: .number(1))
        }
        #expect(error?.code == .decoding)
        // The advice is the recovery's: the library's words here, the CLI's flags in the
        // end-to-end tests (NotJSONBodyTests, RecoveryAdviceTests).
        #expect(error?.description == message)
        #expect(error?.recovery == (message.hasPrefix("post #") ? nil : .checkBackend))
    }

    @Test("one malformed post costs that post, a mistyped optional field only that field; both are noted")
    func oneBadPostKeepsThePage() throws {
        let body = #"""
            [{"id":1,"title":"fine","createdAt":"2025-05-30T10:00:00Z"},
             {"id":2.5,"title":"fractional id"},
             {"id":3,"title":null},
             {"id":4,"title":"bad date","createdAt":"9999-99-99","popularity":"high","author":[1,2]},
             7,
             {"id":6,"title":"huge popularity","popularity":1e308}]
            """#
        let page = try decoder("json-server").decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/p")!, key: .number(1))
        #expect(page.posts.map(\.id) == [1, 4, 6])
        #expect(page.posts[1].title == "bad date")
        #expect(page.posts[1].createdAt == nil && page.posts[1].popularity == nil && page.posts[1].author == nil)
        #expect(page.posts[2].popularity == 1e308)
        #expect(page.decodingProblems == [
            #"post #2 skipped: field "id" is 2.5, expected a string or a whole number (no fraction or exponent)"#,
            #"post #3 skipped: field "title" missing (tried "title", "name")"#,
            #"post #4 shown without it: field "author" is an array, expected a string, a user id or an object with a name"#,
            #"post #4 shown without it: field "createdAt" is "9999-99-99", expected an ISO-8601 date"#,
            #"post #4 shown without it: field "popularity" is "high", expected a finite number"#,
            "post #5 skipped: expected an object, got a number",
        ])
        #expect(page.nextKey != nil || page.posts.count < 10, "the page still walks on as its length says")
    }

    @Test("a popularity outside Double's range (1e999) costs that field only, not the page")
    func popularityOutOfRangeCostsTheField() throws {
        // Given a page one of whose posts has a popularity no Double holds
        let body = #"""
            [{"id":1,"title":"fine","popularity":3},
             {"id":2,"title":"too popular","popularity":1e999},
             {"id":3,"title":"fine too","popularity":-1e999}]
            """#

        // When it is decoded
        let page = try decoder("json-server").decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/p")!, key: .number(1))

        // Then every post is kept, the two without a popularity, and that is noted as out of range
        #expect(page.posts.map(\.id) == [1, 2, 3])
        #expect(page.posts.map(\.popularity) == [3, nil, nil])
        #expect(page.decodingProblems == [
            #"post #2 shown without it: field "popularity" is 1e999, out of range (expected a finite number)"#,
            #"post #3 shown without it: field "popularity" is -1e999, out of range (expected a finite number)"#,
        ])
    }

    /// Issue 32, item 1: ids are opaque strings. This test asserted the old rule (such a
    /// post skipped as out of range) and now asserts the new one.
    @Test("an id beyond 64 bits is the id of its digits; string ids are ids as they are")
    func idBeyond64BitsIsItsDigits() throws {
        // Given posts whose ids no Int holds, or are no numbers at all
        let body = #"[{"id":1,"title":"fine"},{"id":123456789012345678901234567890,"title":"huge id"},"#
            + #"{"id":"t3_1abc","title":"reddit"},{"id":"109876543210987654321","title":"mastodon"},{"id":"7","title":"seven"}]"#

        // When decoded
        let page = try decoder("json-server").decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/p")!, key: .number(1))

        // Then every post is kept, its id its text
        #expect(page.posts.map(\.id) == [1, "123456789012345678901234567890", "t3_1abc", "109876543210987654321", 7])
        #expect(page.posts.map(\.id.text) == ["1", "123456789012345678901234567890", "t3_1abc", "109876543210987654321", "7"])
        #expect(page.decodingProblems == [])
    }

    /// `"7"` and `7` are one id: the post was shown twice under two numbers, and the saved
    /// place kept it once, so the numbers after it moved between runs.
    @Test("a post listed twice in one page is kept once, where it first comes, and noted; the page still walks on by what was sent")
    func repeatedPostInAPage() throws {
        let body = #"[{"id":"7","title":"first"},{"id":8,"title":"eight"},{"id":7,"title":"again"},{"id":9,"title":"nine"},{"id":10,"title":"ten"}]"#
        let page = try decoder("json-server", pageSize: 5).decode(
            body: Data(body.utf8), headers: [:], url: URL(string: "http://h/p")!, key: .number(1))
        #expect(page.posts.map(\.id) == [7, 8, 9, 10])
        #expect(page.posts.first?.title == "first")
        #expect(page.decodingProblems == ["post #3 skipped: it repeats post #1 (id 7) of the same page"])
        // Five sent for a page of five: not a short last page, whatever was dropped.
        #expect(page.nextKey == .number(2), "\(String(describing: page.nextKey))")
    }

    @Test("items key missing or mistyped names the key; offset pages say their number")
    func itemsKey() throws {
        let url = URL(string: "http://h/posts?limit=10&skip=20")!
        let missing = #expect(throws: RepositoryError.self) {
            try decoder("dummyjson").decode(body: Data(#"{"total":3}"#.utf8), headers: [:], url: url, key: .offset(20))
        }
        #expect(missing?.recovery == .checkBackend)
        #expect(missing?.description == #"page 3 (offset 20) of http://h/posts?limit=10&skip=20: field "posts" missing; check that the base URL and the backend describe this API"#)
        let mistyped = #expect(throws: RepositoryError.self) {
            try decoder("dummyjson").decode(body: Data(#"{"posts":{}}"#.utf8), headers: [:], url: url, key: .offset(20))
        }
        #expect(mistyped?.message.contains(#"field "posts" is an object, expected an array of posts"#) == true)
    }

    // MARK: Next key and end of list

    @Test("json-server 0.17: Link next, X-Total-Count, then Link without next")
    func jsonServerEnd() throws {
        let decoder = try decoder("json-server")
        let url = URL(string: "http://h/posts?_page=2&_limit=10")!
        var headers: HTTPHeaders = ["X-Total-Count": "25"]
        headers.add(name: "Link", value: #"<http://h/posts?_page=1&_limit=10>; rel="first", <http://h/posts?_page=3&_limit=10>; rel="next""#)
        let middle = try decoder.decode(body: Data("[\(items(10, from: 11))]".utf8), headers: headers, url: url, key: .number(2))
        #expect(middle.nextKey == .number(3))
        #expect(middle.totalCount == 25)
        #expect(middle.totalPages == 3)
        #expect(middle.number == 2)

        headers["Link"] = #"<http://h/posts?_page=1&_limit=10>; rel="first", <http://h/posts?_page=2&_limit=10>; rel="prev""#
        headers["X-Total-Count"] = "30"  // even a wrong total does not keep the list going
        let last = try decoder.decode(body: Data("[\(items(10, from: 21))]".utf8), headers: headers, url: url, key: .number(3))
        #expect(last.nextKey == nil)
    }

    @Test("json-server 1.x: next null ends; DummyJSON: total reached ends")
    func bodySignals() throws {
        let v1 = try decoder("json-server-v1")
        let url = URL(string: "http://h/posts?_page=1&_per_page=10")!
        let more = try v1.decode(
            body: Data(#"{"first":1,"prev":null,"next":2,"last":3,"pages":3,"items":25,"data":[\#(items(10))]}"#.utf8),
            headers: [:], url: url, key: .number(1))
        #expect(more.nextKey == .number(2))
        #expect(more.totalCount == 25)
        let end = try v1.decode(
            body: Data(#"{"first":1,"prev":2,"next":null,"last":3,"pages":3,"items":25,"data":[\#(items(5, from: 21))]}"#.utf8),
            headers: [:], url: url, key: .number(3))
        #expect(end.nextKey == nil)

        let dummy = try decoder("dummyjson")
        let full = try dummy.decode(
            body: Data(#"{"posts":[\#(items(10, from: 11))],"total":20,"skip":10,"limit":10}"#.utf8),
            headers: [:], url: url, key: .offset(10))
        #expect(full.nextKey == nil, "10 + 10 reaches the total of 20, though the page is full")
        #expect(full.number == 2)
        let notYet = try dummy.decode(
            body: Data(#"{"posts":[\#(items(10))],"total":20,"skip":0,"limit":10}"#.utf8),
            headers: [:], url: url, key: .offset(0))
        #expect(notYet.nextKey == .offset(10))
    }

    @Test("postfeed: hasMore false ends; cursor style follows nextCursor")
    func postfeedSignals() throws {
        let decoder = try decoder("postfeed")
        let url = URL(string: "http://h/api/posts?page=2&limit=10")!
        let body = #"{"posts":[\#(items(10))],"page":2,"limit":10,"total":40,"totalPages":4,"hasMore":false,"nextCursor":null}"#
        #expect(try decoder.decode(body: Data(body.utf8), headers: [:], url: url, key: .number(2)).nextKey == nil)

        let cursor = try self.decoder("postfeed-cursor")
        let first = try cursor.decode(
            body: Data(#"{"posts":[\#(items(10))],"total":40,"hasMore":true,"nextCursor":"c10"}"#.utf8),
            headers: [:], url: url, key: .cursor(nil))
        #expect(first.nextKey == .cursor("c10"))
        #expect(first.number == 1)
        let walked = try cursor.decode(
            body: Data(#"{"posts":[\#(items(10, from: 31))],"total":40,"hasMore":false,"nextCursor":null}"#.utf8),
            headers: [:], url: url, key: .cursor("c30"), startIndex: 30)
        #expect(walked.nextKey == nil)
        #expect(walked.number == 4)
        #expect(walked.totalPages == 4)
    }

    @Test("an empty page ends the list; past a known total it is out of range")
    func emptyPages() throws {
        let decoder = try decoder("json-server")
        let url = URL(string: "http://h/posts?_page=9&_limit=10")!
        let error = #expect(throws: RepositoryError.self) {
            try decoder.decode(body: Data("[]".utf8), headers: ["X-Total-Count": "25"], url: url, key: .number(9))
        }
        #expect(error?.code == .pageOutOfRange)
        #expect(error?.message == "page 9 is past the end of the list (25 posts, 3 pages of 10)")
        let unknownTotal = try decoder.decode(body: Data("[]".utf8), headers: [:], url: url, key: .number(9))
        #expect(unknownTotal.posts.isEmpty)
        #expect(unknownTotal.isLast)
        let emptyList = try decoder.decode(body: Data("[]".utf8), headers: ["X-Total-Count": "0"], url: url, key: .number(1))
        #expect(emptyList.isLast)
        #expect(emptyList.totalPages == 0)
    }

    /// A Link header with no readable link (no `<…>`, an unterminated target) is no end
    /// signal: json-server's short-page and total rules decide, and the problem is said
    /// with the header's text. Before, it counted as "a Link without next": the end.
    @Test("an unreadable Link header is no end signal, and is said", arguments: [
        "http://h/posts?_page=3&_limit=10; rel=next", "<http://h/posts?_page=3&_limit=10; rel=\"next\"", "garbage",
    ])
    func unreadableLinkHeader(_ value: String) throws {
        let decoder = try decoder("json-server")
        let url = URL(string: "http://h/posts?_page=2&_limit=10")!
        let headers: HTTPHeaders = ["X-Total-Count": "25", "Link": value]
        let middle = try decoder.decode(body: Data("[\(items(10, from: 11))]".utf8), headers: headers, url: url, key: .number(2))
        #expect(middle.nextKey == .number(3))
        let said = middle.decodingProblems.contains { $0.contains("Link header could not be read") }
        #expect(said, "\(middle.decodingProblems)")
    }

    @Test("link style follows rel=next and stops without it")
    func linkStyle() throws {
        let backend = try BackendDescription(configuration: Data(
            #"{"baseURL":"http://h","pagination":{"style":"link","limit":"per_page"},"end":["linkWithoutNext"]}"#.utf8))
        let decoder = PageDecoder(backend: backend, pageSize: 10)
        let url = URL(string: "http://h/posts?per_page=10")!
        let first = try decoder.decode(
            body: Data("[\(items(10))]".utf8), headers: ["Link": #"<http://h/posts?per_page=10&page=2>; rel="next""#],
            url: url, key: .link(nil))
        #expect(first.nextKey == .link(URL(string: "http://h/posts?per_page=10&page=2")!))
        let last = try decoder.decode(
            body: Data("[\(items(10))]".utf8), headers: ["Link": #"<http://h/posts?per_page=10&page=1>; rel="prev""#],
            url: url, key: .link(URL(string: "http://h/posts?per_page=10&page=2")!), startIndex: 10)
        #expect(last.nextKey == nil)
        #expect(last.number == 2)
    }
}
