import Foundation
import PostFeedModels
import Testing

/// Issue 32, item 4: text as people read it, for any backend whose posts are HTML (here a
/// JSON API sending WordPress's `title.rendered`-style titles and HTML bodies), decided
/// where a post is shown, not by the feed reader.
@Suite("posts read as text")
struct ReadableTextTests {
    /// A json-server-style page whose posts are HTML, as a WordPress-like API sends them.
    static let page = Data(#"""
        [
          {"id": 1, "title": "It&#8217;s Rock &amp; Roll", "author": "Ana &amp; Ben",
           "body": "<p>First <strong>paragraph</strong> with <a href=\"https://example.com/a\">a link</a>.</p><script>evil()</script><!-- note --><p>Second &hellip; \u001b[31mred\u001b[0m</p>"},
          {"id": 2, "title": "Plain title", "body": "Plain body\nkept on two lines"}
        ]
        """#.utf8)

    @Test("a JSON API's HTML posts are laid out as text on every view, entities decoded in titles too")
    func htmlFromAJSONAPI() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(body: Self.page, contentType: "application/json") { server in
            // When: list, then page --json
            let list = try await sandbox.run(["list", "--no-images", "--api", "json-server", "--base-url", server.baseURL])

            // Then: the titles as people read them, plain ones untouched
            #expect(list.succeeded, "\(list)")
            let printed = PrintedList(list.standardOutput)
            #expect(printed.entries.map(\.title) == ["It’s Rock & Roll", "Plain title"], "\(list)")
            #expect(list.standardOutput.contains("Ana & Ben ·"), "\(list)")

            let json = try await sandbox.run(["page", "1", "--json", "--no-images", "--api", "json-server", "--base-url", server.baseURL])
            #expect(json.succeeded, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let posts = try #require(object["posts"] as? [[String: Any]], "\(json)")
            let html = try #require(posts.first?["post"] as? [String: Any])
            // The original is kept as sent...
            #expect(html["title"] as? String == "It&#8217;s Rock &amp; Roll", "\(json)")
            #expect((html["body"] as? String)?.hasPrefix("<p>First <strong>") == true, "\(json)")
            // ...and the text added beside it: paragraphs, the link numbered, the script,
            // the comment and the escape sequence gone.
            #expect(html["titleText"] as? String == "It’s Rock & Roll", "\(json)")
            #expect(
                html["text"] as? String
                    == "First paragraph with a link [1].\n\nSecond … red\n\n[1] https://example.com/a", "\(json)")
            let plain = try #require(posts.last?["post"] as? [String: Any])
            #expect(plain["text"] as? String == "Plain body\nkept on two lines", "\(json)")
            #expect(plain["titleText"] == nil, "\(json)")
        }
    }

    @Test("a backend file's bodyFormat markdown lays Markdown bodies out")
    func markdownByBackendFile() async throws {
        let sandbox = try Sandbox()
        let body = Data(##"[{"id": "a1", "title": "Lemmy-ish", "body": "# Heading\n\nSome *text* and [a link](https://example.org/x)."}]"##.utf8)
        try await CannedHTTPServer.withRunning(body: body, contentType: "application/json") { server in
            // Given: a backend file saying the bodies are Markdown
            let file = sandbox.directory.appendingPathComponent("backend.json")
            try Data(#"{"preset": "json-server", "baseURL": "\#(server.baseURL)", "bodyFormat": "markdown"}"#.utf8).write(to: file)

            // When
            let json = try await sandbox.run(["page", "1", "--json", "--no-images", "--backend", file.path])

            // Then
            #expect(json.succeeded, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let post = try #require((object["posts"] as? [[String: Any]])?.first?["post"] as? [String: Any], "\(json)")
            #expect(post["text"] as? String == "HEADING\n\nSome text and a link [1].\n\n[1] https://example.org/x", "\(json)")
            #expect(post["bodyFormat"] as? String == "markdown", "\(json)")
        }
    }
}
