import Foundation
import PostFeedFormats
import PostFeedModels
import Testing

/// How any post reads on a terminal (issue 32, item 4): the decision is made from the
/// post itself, whatever backend it came from.
@Suite("posts as people read them")
struct PostTextTests {
    @Test("HTML is recognised by its tags or references; plain text, Markdown-looking text and stray angle brackets are not")
    func detection() {
        #expect(PostBodyFormat.detected(in: "<p>Hello</p>") == .html)
        #expect(PostBodyFormat.detected(in: "line<br>break") == .html)
        #expect(PostBodyFormat.detected(in: "see <a href=\"x\">this</a>") == .html)
        #expect(PostBodyFormat.detected(in: "Tom &amp; Jerry") == .html)
        #expect(PostBodyFormat.detected(in: "It&#8217;s") == .html)
        #expect(PostBodyFormat.detected(in: "a < b and c > d") == .plain)
        #expect(PostBodyFormat.detected(in: "AT&T, R&D") == .plain)
        #expect(PostBodyFormat.detected(in: "Vector<Int> and <custom> tags") == .plain)
        #expect(PostBodyFormat.detected(in: "*emphasis* and # not a heading") == .plain)
    }

    @Test("an HTML post: title references decoded, body laid out with numbered links, controls gone")
    func htmlPost() {
        let post = Post(
            id: "1", title: "It&#8217;s <em>here</em> \u{1B}[31m&amp; now",
            body: "<p>One <a href=\"/more\">more</a></p><script>x()</script><p>Two\u{1B}]2;title\u{07}</p>",
            bodyFormat: .html, link: "https://blog.example/posts/1")
        #expect(post.readableTitle == "It’s here & now")
        let body = post.readableBody()
        #expect(body.text == "One more [1]\n\nTwo\n\n[1] https://blog.example/more")
    }

    @Test("a plain post keeps its lines and its text; only controls go")
    func plainPost() {
        let post = Post(id: "1", title: "Plain \u{1B}[2Jtitle", body: "line one\nline two  \u{07}")
        #expect(post.effectiveBodyFormat == .plain)
        #expect(post.readableTitle == "Plain title")
        #expect(post.readableBody().text == "line one\nline two  ")
    }

    @Test("a post whose source did not say is read as HTML when its body plainly is")
    func detectedHTML() {
        let post = Post(id: "1", title: "Rock &amp; Roll", body: "<p>A</p><p>B</p>")
        #expect(post.effectiveBodyFormat == .html)
        #expect(post.readableTitle == "Rock & Roll")
        #expect(post.readableBody().text == "A\n\nB")
    }

    @Test("Markdown, where the source says so")
    func markdownPost() {
        let post = Post(id: "1", title: "T", body: "Some **bold** and [link](https://x.example/)", bodyFormat: .markdown)
        #expect(post.readableBody().text == "Some bold and link [1]\n\n[1] https://x.example/")
    }

    @Test("a feed item becomes a post: id, original body and its format, link, image; no title: its first line")
    func feedItemPost() {
        let item = FeedItem(
            id: "tag:x,2025:1", title: nil, content: .html("<p>First line of a status.</p><p>More.</p>"),
            author: "Ana", imageURL: URL(string: "https://x.example/a.png"), link: URL(string: "https://x.example/1"))
        let post = item.post
        #expect(post.id == PostID("tag:x,2025:1"))
        #expect(post.title == "First line of a status.")
        #expect(post.body == "<p>First line of a status.</p><p>More.</p>")
        #expect(post.bodyFormat == .html)
        #expect(post.link == "https://x.example/1")
        #expect(post.imageURL == "https://x.example/a.png")
        #expect(post.popularity == nil)
    }
}
