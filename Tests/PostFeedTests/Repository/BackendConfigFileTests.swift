import Foundation
import Testing

@testable import PostFeed

@Suite("Backend config files and presets")
struct BackendConfigFileTests {
    /// Writes `text` to a new file in a fresh temporary folder.
    func configFile(_ text: String, name: String = "backend.json") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "postfeed-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The error `load(from:)` throws for `text`.
    func loadError(_ text: String) throws -> (BackendConfigurationError, URL) {
        let file = try configFile(text)
        do {
            _ = try BackendDescription.load(from: file)
        } catch {
            return (error, file)
        }
        Issue.record("expected \(text) to be rejected")
        return (BackendConfigurationError(file: nil, field: nil, message: ""), file)
    }

    @Test("the example from the docs loads as written")
    func fullExample() throws {
        let file = try configFile(
            """
            {"name":"my-api","baseURL":"http://127.0.0.1:3000","postsPath":"/posts",
             "pagination":{"style":"offset","offset":"skip","limit":"limit"},
             "items":"posts","total":{"bodyField":"total"},"end":["totalReached","shortPage"],
             "fields":{"image":["thumbnail"]}, "// note": "comments are keys starting with //"}
            """)
        let backend = try BackendDescription.load(from: file)
        #expect(backend.name == "my-api")
        #expect(backend.baseURL.absoluteString == "http://127.0.0.1:3000")
        #expect(backend.pagination == .offset(offset: "skip", limit: "limit"))
        #expect(backend.items == .key("posts"))
        #expect(backend.total == .bodyField("total"))
        #expect(backend.endSignals == [.totalReached, .shortPage])
        #expect(backend.fields.image == ["thumbnail"])
        #expect(backend.fields.title == FieldMapping().title, "other parts keep their defaults")
        #expect(backend.postPath == nil)
    }

    @Test("cursor and link styles, end signal objects and shorthands")
    func cursorAndLink() throws {
        let cursor = try BackendDescription(configuration: Data(
            """
            {"baseURL":"https://api.example.com/v2","postsPath":"/feed",
             "pagination":{"style":"cursor","cursor":"after","limit":"first","nextCursorField":"page_info.end_cursor"},
             "items":"data.items","end":[{"fieldNull":"page_info.end_cursor"},"flagFalse:page_info.has_next"]}
            """.utf8))
        #expect(cursor.pagination == .cursor(cursor: "after", limit: "first", nextCursorField: "page_info.end_cursor"))
        #expect(cursor.endSignals == [.fieldNull("page_info.end_cursor"), .flagFalse("page_info.has_next")])
        #expect(cursor.items == .key("data.items"))
        #expect(try cursor.pageURL(for: .cursor("a+b/c="), pageSize: 5).absoluteString
            == "https://api.example.com/v2/feed?after=a%2Bb%2Fc%3D&first=5")

        let link = try BackendDescription(configuration: Data(
            #"{"baseURL":"https://api.github.com","postsPath":"/repos/o/r/issues?state=all","pagination":{"style":"link","limit":"per_page"},"items":null,"end":["linkWithoutNext"]}"#.utf8))
        #expect(link.pagination == .linkHeader(limit: "per_page"))
        #expect(link.items == .root)
        #expect(link.firstPageKey == .link(nil))
        #expect(try link.pageURL(for: .link(nil), pageSize: 30).absoluteString
            == "https://api.github.com/repos/o/r/issues?state=all&per_page=30")
        #expect(link.pageKey(forPageNumber: 3, pageSize: 30) == nil)
    }

    @Test("a preset with overrides; baseURL from the caller wins")
    func presetWithOverrides() throws {
        let file = try configFile(#"{"preset":"json-server","baseURL":"http://a.example","fields":{"author":"userId"},"maximumPageSize":50}"#)
        let backend = try BackendDescription.load(from: file, baseURL: URL(string: "http://127.0.0.1:9")!)
        #expect(backend.name == "json-server")
        #expect(backend.baseURL.absoluteString == "http://127.0.0.1:9")
        #expect(backend.pagination == .pageNumber(page: "_page", limit: "_limit"))
        #expect(backend.fields.author == ["userId"])
        #expect(backend.maximumPageSize == 50)
        #expect(throws: RepositoryError.self) { try backend.validatePageSize(51) }
    }

    @Test("Codable writes the config format and reads it back")
    func roundTrip() throws {
        for name in BackendDescription.presetNames {
            let backend = try BackendDescription.preset(name, baseURL: URL(string: "http://127.0.0.1:8080/")!)
            let data = try JSONEncoder().encode(backend)
            #expect(try JSONDecoder().decode(BackendDescription.self, from: data) == backend)
            #expect(try BackendDescription(configuration: data) == backend)
        }
    }

    @Test("bad files: the error names the file and the field", arguments: [
        (#"{"baseURL":"http://h","pagination":{"style":"pages"}}"#, "pagination.style", "unknown style"),
        (#"{"baseURL":"http://h","pagination":{"style":"page","offset":"skip"}}"#, "pagination.offset", "unknown field"),
        (#"{"baseURL":"http://h","pagination":"page","pagnation":{}}"#, "pagnation", "unknown field"),
        (#"{"pagination":"page"}"#, "baseURL", "missing"),
        (#"{"baseURL":"ftp://h","pagination":"page"}"#, "baseURL", "http or https"),
        (#"{"baseURL":"http://h"}"#, "pagination", "missing"),
        (#"{"baseURL":"http://h","pagination":"page","items":3}"#, "items", "expected a string"),
        (#"{"baseURL":"http://h","pagination":"page","end":["totalReached","nope"]}"#, "end[1]", "unknown end signal"),
        (#"{"baseURL":"http://h","pagination":"page","end":[{"flagFalse":7}]}"#, "end[0].flagFalse", "expected a string"),
        (#"{"baseURL":"http://h","pagination":"page","fields":{"image":[]}}"#, "fields.image", "at least one"),
        (#"{"baseURL":"http://h","pagination":"page","fields":{"picture":"x"}}"#, "fields.picture", "unknown field"),
        (#"{"baseURL":"http://h","pagination":"page","fields":{"title":["title",3]}}"#, "fields.title[1]", "non-empty string"),
        (#"{"baseURL":"http://h","pagination":"page","total":{"header":""}}"#, "total.header", "must not be empty"),
        (#"{"baseURL":"http://h","pagination":"page","maximumPageSize":0}"#, "maximumPageSize", "at least 1"),
        (#"{"baseURL":"http://h","pagination":"page","postsPath":"posts"}"#, "postsPath", "must start with"),
        (#"{"baseURL":"http://h","pagination":"page","postPath":"/posts/1"}"#, "postPath", "{id}"),
        (#"{"baseURL":"http://h","preset":"strapi"}"#, "preset", "unknown backend preset"),
    ])
    func badField(text: String, field: String, words: String) throws {
        let (error, file) = try loadError(text)
        #expect(error.field == field)
        #expect(error.file == file)
        #expect(error.description.contains(file.path))
        #expect(error.description.contains("field \"\(field)\""))
        #expect(error.message.contains(words), "\(error)")
    }

    @Test("not JSON, not an object, no file: the error names the file")
    func badFiles() throws {
        let (notJSON, file) = try loadError(#"{"baseURL": "http://h", "#)
        #expect(notJSON.field == nil)
        #expect(notJSON.description.hasPrefix(file.path))
        #expect(notJSON.message.contains("not valid JSON"))
        // The parser's cause and place; a file that is not UTF-8 says where
        let (trailingComma, _) = try loadError("{\n  \"baseURL\": \"http://h\",\n}")
        #expect(trailingComma.message == "not valid JSON: unexpected '}', expected a key in quotes at line 3, column 1 (byte 28)")
        let latin1 = #expect(throws: BackendConfigurationError.self) {
            try BackendDescription(configuration: Data(#"{"name": "caf"#.utf8) + Data([0xE9, 0x22, 0x7D]))
        }
        #expect(latin1?.message == "not valid JSON: not UTF-8 at byte 14 (0xe9)")

        let (array, _) = try loadError("[1, 2]")
        #expect(array.message.contains("expected an object"))

        let missing = FileManager.default.temporaryDirectory.appending(path: "no-such-\(UUID().uuidString).json")
        let error = #expect(throws: BackendConfigurationError.self) { try BackendDescription.load(from: missing) }
        #expect(error?.file == missing)
        #expect(error?.message.contains("no such file") == true)
    }

    @Test("unknown preset names the known ones; a bad base URL is refused")
    func presets() {
        let unknown = #expect(throws: BackendConfigurationError.self) {
            try BackendDescription.preset("graphql", baseURL: URL(string: "http://h")!)
        }
        #expect(unknown?.message.contains("json-server-v1") == true)
        let scheme = #expect(throws: BackendConfigurationError.self) {
            try BackendDescription.preset("postfeed", baseURL: URL(string: "file:///tmp")!)
        }
        #expect(scheme?.field == "baseURL")
    }

    @Test("page URLs per preset, and page size validation")
    func pageURLs() throws {
        let base = URL(string: "http://127.0.0.1:8080")!
        let postfeed = try BackendDescription.preset("postfeed", baseURL: base)
        #expect(try postfeed.pageURL(for: .number(3), pageSize: 20).absoluteString == "http://127.0.0.1:8080/api/posts?page=3&limit=20")
        let jsonServer = try BackendDescription.preset("json-server", baseURL: base)
        #expect(try jsonServer.pageURL(for: .number(2), pageSize: 10).absoluteString == "http://127.0.0.1:8080/posts?_page=2&_limit=10")
        let v1 = try BackendDescription.preset("json-server-v1", baseURL: base)
        #expect(try v1.pageURL(for: .number(2), pageSize: 10).absoluteString == "http://127.0.0.1:8080/posts?_page=2&_per_page=10")
        let dummy = try BackendDescription.preset("dummyjson", baseURL: URL(string: "http://127.0.0.1:8080/")!)
        #expect(try dummy.pageURL(for: .offset(40), pageSize: 20).absoluteString == "http://127.0.0.1:8080/posts?limit=20&skip=40")
        #expect(dummy.pageKey(forPageNumber: 4, pageSize: 20) == .offset(60))
        #expect(dummy.postURL(id: 7)?.absoluteString == "http://127.0.0.1:8080/posts/7")

        let mismatch = #expect(throws: RepositoryError.self) { try dummy.pageURL(for: .number(2), pageSize: 20) }
        #expect(mismatch?.code == .badConfiguration)
        for size in [0, -1, 101] {
            #expect(throws: RepositoryError.self) { try postfeed.validatePageSize(size) }
        }
        try postfeed.validatePageSize(1)
        try postfeed.validatePageSize(100)
    }
}
