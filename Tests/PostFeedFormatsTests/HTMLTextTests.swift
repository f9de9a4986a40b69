import Foundation
import PostFeedFormats
import Testing

/// Issue 32 item 4: text as people read it.
@Suite("HTML to terminal text")
struct HTMLTextTests {
    @Test("paragraphs are separated by a blank line, <br> breaks a line, white space collapses")
    func paragraphs() {
        let rendered = HTMLText.render("<p>One\n   two\tthree</p>\n<p>Line<br>next<br/>  last</p><div>div text</div>")
        #expect(rendered.body == "One two three\n\nLine\nnext\nlast\n\ndiv text")
        #expect(rendered.links.isEmpty)
    }

    @Test("lists: bullets, numbers, nesting indented, start attribute")
    func lists() {
        let html = """
            <p>Before</p><ul><li>One</li><li>Two<ul><li>Two-a</li><li>Two-b with a longer text</li></ul></li><li>Three</li></ul>
            <ol start="3"><li>Third</li><li>Fourth<br>continued</li></ol><p>After</p>
            """
        #expect(HTMLText.render(html).body == """
            Before

            • One
            • Two
              ◦ Two-a
              ◦ Two-b with a longer text
            • Three

            3. Third
            4. Fourth
               continued

            After
            """)
    }

    @Test("block quotes prefix every line, nested ones twice")
    func blockQuotes() {
        let html = "<p>Said:</p><blockquote><p>First</p><p>Second<br>line</p><blockquote>Inner</blockquote></blockquote><p>Done</p>"
        #expect(HTMLText.render(html).body == """
            Said:

            > First
            >
            > Second
            > line
            >
            > > Inner

            Done
            """)
    }

    @Test("headings stand alone, in capitals")
    func headings() {
        let html = "<h1>Title é</h1><p>Text</p><h3>Sub <em>part</em></h3>Tail"
        #expect(HTMLText.render(html).body == "TITLE É\n\nText\n\nSUB PART\n\nTail")
    }

    @Test("preformatted text is kept as it is, tabs expanded")
    func preformatted() {
        let html = "<p>Code:</p><pre><code>func f() {\n\treturn  1   // spaced\n}\n</code></pre><p>After</p>"
        #expect(HTMLText.render(html).body == "Code:\n\nfunc f() {\n        return  1   // spaced\n}\n\nAfter")
    }

    @Test("links become numbered references listed under the text; the same target keeps its number")
    func links() {
        let html = """
            <p>Read <a href="https://a.example/x">this</a> and <a href="/rel">that</a>, \
            again <a href="https://a.example/x">this</a>. Bare: <a href="https://b.example/">https://b.example/</a>. \
            <a href="#top">Top</a> <a href="javascript:void(0)">js</a></p>
            """
        let rendered = HTMLText.render(html, baseURL: URL(string: "https://site.example/posts/1"))
        #expect(rendered.body == "Read this [1] and that [2], again this [1]. Bare: https://b.example/. Top js")
        #expect(rendered.links == ["https://a.example/x", "https://site.example/rel"])
        #expect(rendered.text == rendered.body + "\n\n[1] https://a.example/x\n[2] https://site.example/rel")
        #expect(rendered.references == "[1] https://a.example/x\n[2] https://site.example/rel")
    }

    @Test("images show their alt text; embeds are links")
    func images() {
        let html = #"<p><img src="/a.png" alt="A cat"> <img src="b.png"> <a href="/big.jpg"><img src="/small.jpg" alt="thumb"></a></p><iframe src="https://www.youtube.com/embed/xyz"></iframe>"#
        let rendered = HTMLText.render(html, baseURL: URL(string: "https://s.example/p/"))
        #expect(rendered.body == "[image: A cat] [image] [image: thumb] [1]\n\n[embed] [2]")
        #expect(rendered.images == ["https://s.example/a.png", "https://s.example/p/b.png", "https://s.example/small.jpg"])
        #expect(rendered.links == ["https://s.example/big.jpg", "https://www.youtube.com/embed/xyz"])
    }

    @Test("scripts, styles, comments, head and noscript are dropped")
    func dropped() {
        let html = """
            <html><head><title>Page title</title><style>p { color: red }</style></head><body>
            <!-- a comment --><script>document.write("no")</script><p>Kept</p><noscript>Enable JS</noscript>
            <template><p>hidden</p></template></body></html>
            """
        #expect(HTMLText.render(html).body == "Kept")
    }

    @Test("entities and numeric references are decoded")
    func entities() {
        let rendered = HTMLText.render("<p>Caf&eacute; &amp; bar &#8212; &#x2019;tis &lt;b&gt; &hellip;&nbsp;end &apos;</p>")
        #expect(rendered.body == "Café & bar — ’tis <b> … end '")
    }

    @Test("tables: a row a line, cells separated")
    func tables() {
        let html = "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ana</td><td>30</td></tr></table>"
        #expect(HTMLText.render(html).body == "Name | Age\nAna | 30")
    }

    @Test("control characters and escape sequences are cleaned from the text and the links")
    func controlCharacters() {
        let html = "<p>Red\u{1B}[31m text\u{07} \u{202E}reversed</p><a href=\"https://x.example/\u{1B}]2;owned\u{07}\">l</a>"
        let rendered = HTMLText.render(html)
        #expect(rendered.body == "Red text reversed\n\nl [1]")
        let controlInText = rendered.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }
        let escapeInLinks = rendered.links.joined().unicodeScalars.contains { $0.value == 0x1B }
        #expect(!controlInText)
        #expect(!escapeInLinks)
    }

    @Test("plain text with no markup collapses white space only")
    func plainText() {
        #expect(HTMLText.render("  just   words \n here ").body == "just words here")
        #expect(HTMLText.render("").body == "")
    }

    @Test("broken HTML is recovered from")
    func broken() {
        #expect(HTMLText.render("<p>open <b>bold <i>both</p><p>next").body == "open bold both\n\nnext")
    }
}

@Suite("Entities in plain text (titles)")
struct EntityDecodingTests {
    @Test(
        "named, decimal, hexadecimal, Windows-1252 and legacy references",
        arguments: [
            ("Rock &amp; Roll", "Rock & Roll"), ("It&#8217;s", "It’s"), ("It&#x2019;s", "It’s"), ("It&#X2019;s", "It’s"),
            ("&hellip;&mdash;&ndash;&laquo;&raquo;", "…—–«»"), ("&apos;quoted&apos;", "'quoted'"), ("&Eacute;t&eacute;", "Été"),
            ("&#146;90s", "’90s"), ("&#0;x", "\u{FFFD}x"), ("&#xD800;", "\u{FFFD}"), ("&#99999999;", "\u{FFFD}"),
            ("AT&T", "AT&T"), ("a &unknown; b", "a &unknown; b"), ("&amp", "&"), ("?a=1&copy=2", "?a=1&copy=2"),
            ("&ampx", "&ampx"), ("no entities", "no entities"), ("&", "&"), ("&#;", "&#;"), ("&#8217", "’"),
        ])
    func decode(text: String, expected: String) {
        #expect(HTMLText.decodeEntities(text) == expected)
    }
}

@Suite("Markdown to terminal text")
struct MarkdownTextTests {
    @Test("paragraphs, lists, quotes, headings, code fences, links")
    func document() {
        let markdown = """
            # Release notes

            This is **bold**, *emphasis* and `code` with a [link](https://example.org/a "title").
            A soft break.

            - first
            - second
              * nested
            1. one
            2. two

            > quoted
            > still quoted

            ```swift
            let x = 1
                indented
            ```

            ![alt text](/img.png) <https://auto.example/> snake_case_name \\*literal\\*
            """
        let rendered = MarkdownText.render(markdown, baseURL: URL(string: "https://lemmy.example/post/1"))
        #expect(rendered.body == """
            RELEASE NOTES

            This is bold, emphasis and code with a link [1]. A soft break.

            • first
            • second
              • nested
            1. one
            2. two

            > quoted still quoted

            let x = 1
                indented

            [image: alt text] https://auto.example/ snake_case_name *literal*
            """)
        #expect(rendered.links == ["https://example.org/a"])
        #expect(rendered.images == ["https://lemmy.example/img.png"])
    }

    @Test("Markdown through FeedText, entities decoded, controls cleaned")
    func feedText() {
        let text = FeedText.markdown("Fish &amp; chips\u{1B}[2J").rendered()
        #expect(text.body == "Fish & chips")
    }
}
