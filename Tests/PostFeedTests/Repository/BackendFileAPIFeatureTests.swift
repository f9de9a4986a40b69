import Foundation
import PostFeedHTTP
import Testing

@testable import PostFeed

/// Issue 32, item 3: what backend files gained for real APIs. Each feature through a
/// backend file (the JSON users write), decoded by the same ``PageDecoder`` the client uses.
@Suite("Backend files: the features real APIs need")
struct BackendFileAPIFeatureTests {
    let url = URL(string: "http://h/wp-json/wp/v2/posts?page=1")!

    func backend(_ json: String) throws -> BackendDescription {
        try BackendDescription(configuration: Data(json.utf8))
    }

    func page(_ backend: BackendDescription, _ body: String, key: PageKey = .number(1), headers: HTTPHeaders = [:], pageSize: Int = 10)
        throws -> Page
    {
        try PageDecoder(backend: backend, pageSize: pageSize).decode(body: Data(body.utf8), headers: headers, url: url, key: key)
    }

    // MARK: Array indices in field paths

    @Test("array indices in field paths reach WordPress's embedded author and featured image")
    func arrayIndices() throws {
        let backend = try backend(#"""
            {"baseURL": "http://h", "pagination": {"style": "page"},
             "fields": {"title": "title.rendered", "author": "_embedded.author.0.name",
                        "image": ["_embedded.wp:featuredmedia.0.source_url", "jetpack_featured_media_url"]}}
            """#)
        let body = #"""
            [{"id": 1, "title": {"rendered": "One"},
              "_embedded": {"author": [{"name": "Ada"}], "wp:featuredmedia": [{"source_url": "https://cdn.example/1.jpg"}]}},
             {"id": 2, "title": {"rendered": "Two"}, "_embedded": {"author": [{"name": "Bo"}]}}]
            """#
        let page = try page(backend, body)
        #expect(page.posts.map(\.author) == ["Ada", "Bo"])
        #expect(page.posts.map(\.imageURL) == ["https://cdn.example/1.jpg", nil])
        #expect(page.decodingProblems.isEmpty, "\(page.decodingProblems)")
    }

    @Test("an index out of range: an optional part is left out, a title says which index and which post")
    func indexOutOfRange() throws {
        let backend = try backend(#"""
            {"baseURL": "http://h", "pagination": "page",
             "fields": {"title": "titles.1", "image": "media.3.url"}}
            """#)
        let body = #"""
            [{"id": 1, "titles": ["a", "First"], "media": [{"url": "https://cdn.example/a.png"}]},
             {"id": 2, "titles": ["only one"]}]
            """#
        let page = try page(backend, body)
        #expect(page.posts.map(\.id) == ["1"])
        #expect(page.posts.first?.imageURL == nil, "media.3 is out of range: no image, nothing trapped")
        #expect(page.decodingProblems == [#"post #2 skipped: field "titles.1" missing: index 1 out of range ("titles" is an array of 1)"#])
    }

    @Test("bad field paths are refused when the file is read, naming the field", arguments: [
        (#""author": "_embedded..name""#, "fields.author", "component 2 is empty"),
        (#""title": [".title"]"#, "fields.title[0]", "component 1 is empty"),
        (#""image": ["ok", "media.1234567890.url"]"#, "fields.image[1]", "index 1234567890 is out of range"),
        (#""body": "content.""#, "fields.body", "component 2 is empty"),
    ])
    func badFieldPath(fields: String, field: String, words: String) throws {
        let error = #expect(throws: BackendConfigurationError.self) {
            try backend(#"{"baseURL": "http://h", "pagination": "page", "fields": {\#(fields)}}"#)
        }
        #expect(error?.field == field, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        #expect(error?.description.contains("\n") == false)
    }

    // MARK: Dates

    @Test("dates: RFC 3339 with and without a zone, RFC 822, epoch seconds as a number or a string", arguments: [
        (#""2025-06-01T10:00:00Z""#, 1_748_772_000.0),
        (#""2025-06-01T10:00:00""#, 1_748_772_000.0),  // WordPress date_gmt: UTC without a zone
        (#""2025-06-01T12:00:00+02:00""#, 1_748_772_000.0),
        (#""2025-06-01T10:00:00.123456""#, 1_748_772_000.123456),  // Lemmy before 0.19
        (#""Sun, 01 Jun 2025 10:00:00 GMT""#, 1_748_772_000.0),
        (#""Sun, 01 Jun 2025 06:00:00 -0400""#, 1_748_772_000.0),
        ("1748772000", 1_748_772_000.0),
        ("1748772000.0", 1_748_772_000.0),  // Reddit's created_utc
        (#""1748772000""#, 1_748_772_000.0),
    ])
    func dates(literal: String, seconds: Double) throws {
        let backend = try backend(#"{"baseURL": "http://h", "pagination": "page", "fields": {"createdAt": "when"}}"#)
        let page = try page(backend, #"[{"id": 1, "title": "t", "when": \#(literal)}]"#)
        let date = try #require(page.posts.first?.createdAt, "\(literal): \(page.decodingProblems)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001, "\(literal)")
    }

    @Test("an unparseable date: the post is listed without it, one line naming the field, the value and the post")
    func unparseableDate() throws {
        let backend = try backend(#"{"baseURL": "http://h", "pagination": "page", "fields": {"createdAt": "post.published"}}"#)
        let page = try page(backend, #"[{"id": 1, "title": "t", "post": {"published": "yesterday-ish"}}]"#)
        #expect(page.posts.count == 1)
        #expect(page.posts.first?.createdAt == nil)
        #expect(page.decodingProblems == [
            #"post #1 shown without it: field "post.published" is "yesterday-ish", expected an ISO-8601 date"#
        ])
    }

    // MARK: First page number

    @Test("pagination.first 0: keys stay 1-based, the request counts from 0")
    func firstPageZero() throws {
        let backend = try backend(#"{"baseURL": "http://h", "postsPath": "/search", "pagination": {"style": "page", "page": "page", "limit": "hitsPerPage", "first": 0}}"#)
        #expect(backend.firstPageNumber == 0)
        #expect(backend.firstPageKey == .number(1))
        #expect(try backend.pageURL(for: .number(1), pageSize: 5).absoluteString == "http://h/search?page=0&hitsPerPage=5")
        #expect(try backend.pageURL(for: .number(3), pageSize: 5).absoluteString == "http://h/search?page=2&hitsPerPage=5")
        #expect(try backend.pageURL(for: .number(Int.max), pageSize: 5).absoluteString.contains("page=\(Int.max - 1)"))
        #expect(try BackendDescription(configuration: JSONEncoder().encode(backend)) == backend, "written back as it was read")
    }

    @Test("pagination.first outside 0…1, or on another style, is refused", arguments: [
        (#"{"style": "page", "first": 2}"#, "pagination.first", "must be 0 or 1"),
        (#"{"style": "offset", "first": 0}"#, "pagination.first", "unknown field"),
        (#"{"style": "page", "first": "zero"}"#, "pagination.first", "expected a whole number"),
    ])
    func badFirst(pagination: String, field: String, words: String) throws {
        let error = #expect(throws: BackendConfigurationError.self) {
            try backend(#"{"baseURL": "http://h", "pagination": \#(pagination)}"#)
        }
        #expect(error?.field == field, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
    }

    // MARK: Next URL in the body

    @Test("nextURL style: the next page is the body's URL, relative to the page; none ends the list")
    func nextURLStyle() throws {
        let backend = try backend(#"{"baseURL": "http://h", "postsPath": "/latest.json", "pagination": {"style": "nextURL", "field": "topic_list.more_topics_url", "limit": null}, "items": "topic_list.topics"}"#)
        #expect(backend.pagination == .nextURL(field: "topic_list.more_topics_url", limit: nil))
        #expect(backend.firstPageKey == .link(nil))
        #expect(try backend.pageURL(for: .link(nil), pageSize: 30).absoluteString == "http://h/latest.json")
        let first = try page(
            backend, #"{"topic_list": {"topics": [{"id": 1, "title": "a"}], "more_topics_url": "/latest.json?page=1"}}"#,
            key: .link(nil))
        #expect(first.nextKey == .link(URL(string: "http://h/latest.json?page=1")!))
        let last = try page(backend, #"{"topic_list": {"topics": [{"id": 2, "title": "b"}]}}"#, key: first.nextKey ?? .link(nil))
        #expect(last.nextKey == nil)
        let empty = try page(backend, #"{"topic_list": {"topics": [{"id": 3, "title": "c"}], "more_topics_url": ""}}"#, key: .link(nil))
        #expect(empty.nextKey == nil, "an empty next URL ends the list")
        let elsewhere = try page(backend, #"{"topic_list": {"topics": [{"id": 3, "title": "c"}], "more_topics_url": "javascript:alert(1)"}}"#, key: .link(nil))
        #expect(elsewhere.nextKey == nil, "only http and https are followed")
        #expect(try BackendDescription(configuration: JSONEncoder().encode(backend)) == backend)
    }

    @Test("nextURL style without a field is refused")
    func nextURLWithoutField() throws {
        let error = #expect(throws: BackendConfigurationError.self) {
            try backend(#"{"baseURL": "http://h", "pagination": {"style": "nextURL"}}"#)
        }
        #expect(error?.field == "pagination.field")
    }

    // MARK: End signals

    @Test("fieldMissing ends the list when the field is absent or null, not while it is there")
    func fieldMissing() throws {
        let backend = try backend(#"{"baseURL": "http://h", "pagination": "page", "items": "list", "end": [{"fieldMissing": "more.url"}]}"#)
        let item = #"{"id": 1, "title": "a"}"#
        #expect(try page(backend, #"{"list": [\#(item)], "more": {"url": "/p2"}}"#).nextKey == .number(2))
        #expect(try page(backend, #"{"list": [\#(item)], "more": {}}"#).nextKey == nil)
        #expect(try page(backend, #"{"list": [\#(item)], "more": {"url": null}}"#).nextKey == nil)
    }

    @Test("page counts from a body field or a header end the list at the last page and give the page count")
    func pageCounts() throws {
        let field = try backend(#"{"baseURL": "http://h", "pagination": "page", "items": "hits", "end": ["pageCountField:nbPages"]}"#)
        let body = #"{"hits": [{"id": 1, "title": "a"}], "nbPages": 3}"#
        #expect(try page(field, body, key: .number(2)).nextKey == .number(3))
        let last = try page(field, body, key: .number(3))
        #expect(last.nextKey == nil)
        #expect(last.totalPages == 3)

        let header = try backend(#"{"baseURL": "http://h", "pagination": "page", "end": [{"pageCountHeader": "X-WP-TotalPages"}]}"#)
        let items = #"[{"id": 1, "title": "a"}]"#
        #expect(try page(header, items, key: .number(1), headers: ["X-WP-TotalPages": "2"]).nextKey == .number(2))
        #expect(try page(header, items, key: .number(2), headers: ["X-WP-TotalPages": "2"]).nextKey == nil)
        #expect(try page(header, items, key: .number(2), headers: ["X-WP-TotalPages": "lots"]).nextKey == .number(3),
                "an unreadable count says nothing")
        #expect(try BackendDescription(configuration: JSONEncoder().encode(header)) == header)
    }

    // MARK: End statuses

    @Test("endStatus: read, matched by status and body code, written back")
    func endStatus() throws {
        let backend = try backend(#"{"baseURL": "http://h", "pagination": "page", "endStatus": [{"status": 400, "code": "rest_post_invalid_page_number"}, 416]}"#)
        #expect(backend.endStatuses == [EndStatus(status: 400, code: "rest_post_invalid_page_number"), EndStatus(status: 416)])
        let wordpress = try JSONValue.parse(Data(#"{"code":"rest_post_invalid_page_number","message":"…","data":{"status":400}}"#.utf8))
        #expect(backend.endStatuses[0].matches(status: 400, body: wordpress))
        #expect(!backend.endStatuses[0].matches(status: 400, body: try JSONValue.parse(Data(#"{"code":"rest_invalid_param"}"#.utf8))))
        #expect(!backend.endStatuses[0].matches(status: 400, body: nil))
        #expect(backend.endStatuses[1].matches(status: 416, body: nil))
        #expect(try BackendDescription(configuration: JSONEncoder().encode(backend)) == backend)
    }

    @Test("endStatus outside 400…599 or of the wrong type is refused", arguments: [
        (#"[200]"#, "endStatus[0]"), (#"[{"code": "x"}]"#, "endStatus[0]"), (#"["400"]"#, "endStatus[0]"),
        (#"[{"status": 400, "why": "x"}]"#, "endStatus[0].why"),
    ])
    func badEndStatus(value: String, field: String) throws {
        let error = #expect(throws: BackendConfigurationError.self) {
            try backend(#"{"baseURL": "http://h", "pagination": "page", "endStatus": \#(value)}"#)
        }
        #expect(error?.field == field, "\(String(describing: error))")
    }

    // MARK: Fixed page size, body format, title from the body

    @Test("pageSize: no page-size parameter is sent, and the repository uses the server's size")
    func fixedPageSize() throws {
        let backend = try backend(#"{"baseURL": "http://h", "postsPath": "/latest.json", "pagination": {"style": "page", "limit": "per_page", "first": 0}, "pageSize": 30}"#)
        #expect(backend.fixedPageSize == 30)
        #expect(try backend.pageURL(for: .number(2), pageSize: 20).absoluteString == "http://h/latest.json?page=1")
        let client = FeedClient.Configuration(backend: backend, pageSize: 5, cacheLocation: CacheLocation(root: URL(fileURLWithPath: "/tmp/unused")))
        #expect(client.pageSize == 30)
        #expect(try BackendDescription(configuration: JSONEncoder().encode(backend)) == backend)
        let tooLarge = #expect(throws: BackendConfigurationError.self) {
            try self.backend(#"{"baseURL": "http://h", "pagination": "page", "pageSize": 101}"#)
        }
        #expect(tooLarge?.field == "pageSize")
    }

    @Test("titleFromBody: a status without a title gets its text's first line; a blank title gives way too")
    func titleFromBody() throws {
        let backend = try backend(#"""
            {"baseURL": "http://h", "pagination": "link", "bodyFormat": "html",
             "fields": {"title": "spoiler_text", "body": "content", "titleFromBody": true}}
            """#)
        #expect(backend.bodyFormat == .html)
        let long = String(repeating: "word ", count: 40)
        let body = #"""
            [{"id": "1", "spoiler_text": "", "content": "<p>First line &amp; more<br />second line</p>"},
             {"id": "2", "spoiler_text": "CW: spoilers", "content": "<p>hidden</p>"},
             {"id": "3", "content": "<p>\#(long)</p>"},
             {"id": "4", "spoiler_text": null, "content": ""}]
            """#
        let page = try page(backend, body, key: .link(nil))
        #expect(page.posts.map(\.title).prefix(2) == ["First line & more", "CW: spoilers"])
        #expect(page.posts[2].title.count == PostDecoder.titleLength && page.posts[2].title.hasSuffix("…"))
        #expect(page.posts[3].title == "", "no text, no title: still listed")
        #expect(try BackendDescription(configuration: JSONEncoder().encode(backend)) == backend)
        let markdown = try self.backend(#"{"baseURL": "http://h", "pagination": "page", "bodyFormat": "markdown", "fields": {"titleFromBody": true}}"#)
        #expect(try self.page(markdown, #"[{"id": 1, "body": "Why **this** matters\n\nmore"}]"#).posts.first?.title == "Why this matters")
        let unknown = #expect(throws: BackendConfigurationError.self) {
            try self.backend(#"{"baseURL": "http://h", "pagination": "page", "bodyFormat": "rtf"}"#)
        }
        #expect(unknown?.field == "bodyFormat")
    }

    @Test("the README's backend file under \"APIs by name\" reads, and describes WordPress as the preset does")
    func readmeExample() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../README.md"),
            encoding: .utf8)
        let section = try #require(readme.range(of: "### APIs by name"))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```json\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let file = try backend(String(rest[start.upperBound..<end.lowerBound]))
        let preset = try BackendDescription.preset("wordpress", baseURL: URL(string: "https://blog.example")!)
        #expect(file.postsPath == preset.postsPath)
        #expect(file.pagination == preset.pagination)
        #expect(file.endStatuses == preset.endStatuses)
        #expect(file.fields.author == preset.fields.author)
        #expect(file.bodyFormat == .html)
    }

    // MARK: Image URLs as real APIs send them

    @Test("an image URL with &amp; is unescaped; a bare word (Reddit's thumbnail \"self\") is no image")
    func imageURLs() throws {
        let backend = try backend(#"{"baseURL": "http://h", "pagination": "page", "fields": {"image": ["preview.images.0.source.url", "thumbnail"]}}"#)
        let body = #"""
            [{"id": 1, "title": "a", "preview": {"images": [{"source": {"url": "https://i.example/a.jpg?width=640&amp;s=abc"}}]}, "thumbnail": "self"},
             {"id": 2, "title": "b", "thumbnail": "self"},
             {"id": 3, "title": "c", "thumbnail": "https://t.example/c.jpg"}]
            """#
        let page = try page(backend, body)
        #expect(page.posts.map(\.imageURL) == ["https://i.example/a.jpg?width=640&s=abc", nil, "https://t.example/c.jpg"])
    }
}
