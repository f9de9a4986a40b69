import Foundation
import PostFeedModels

extension PostBodyFormat {
    /// The format of `text` whose source did not say: `.html` when it holds an HTML tag
    /// readers know (`<p>`, `<br>`, `<a href=…>`, `</strong>`, …) or a character reference
    /// (`&amp;`, `&#8217;`); else `.plain`. Markdown is never guessed: `*` and `_` are
    /// common in plain text, so only a source that says so gets it.
    ///
    /// ```swift
    /// PostBodyFormat.detected(in: "<p>Hello</p>")     // .html
    /// PostBodyFormat.detected(in: "Tom &amp; Jerry")  // .html
    /// PostBodyFormat.detected(in: "a < b, c > d")     // .plain
    /// ```
    public static func detected(in text: String) -> PostBodyFormat {
        hasKnownTag(text) || HTMLText.decodeEntities(text) != text ? .html : .plain
    }

    /// Whether `text` holds a start or end tag of an element HTML bodies use.
    static func hasKnownTag(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var start = index + 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < bytes.count, end - start <= 10, isNameByte(bytes[end]) { end += 1 }
            if end > start, end < bytes.count, [UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "/"), 0x0A, 0x09].contains(bytes[end]),
               knownTags.contains(String(decoding: bytes[start..<end], as: UTF8.self).lowercased())
            {
                return true
            }
            index += 1
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The elements whose tags mark a text as HTML.
    private static let knownTags: Set<String> = [
        "a", "abbr", "article", "aside", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "details",
        "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "iframe",
        "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "script", "section", "small", "span",
        "strong", "style", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul", "video",
        "audio", "source", "picture", "html", "body", "head",
    ]
}

extension Post {
    /// The format ``body`` is read in: ``bodyFormat`` when the source said, else what the
    /// body shows (``PostBodyFormat/detected(in:)``).
    public var effectiveBodyFormat: PostBodyFormat {
        bodyFormat ?? PostBodyFormat.detected(in: body)
    }

    /// The body as a reader reads it on a terminal: HTML and Markdown laid out (paragraphs,
    /// lists, quotes, headings, preformatted text kept), links numbered with their targets
    /// listed under the text (``RenderedText/text``), entities decoded, scripts, styles
    /// and comments dropped, control characters and escape sequences dropped. A plain body
    /// keeps its lines as they are, controls dropped.
    ///
    /// - Parameter baseURL: what relative links resolve against; default ``link``.
    ///
    /// ```swift
    /// let post = Post(id: "1", title: "Hi", body: "<p>See <a href='https://swift.org'>Swift</a></p>", bodyFormat: .html)
    /// post.readableBody().text   // "See Swift [1]\n\n[1] https://swift.org"
    /// ```
    public func readableBody(baseURL: URL? = nil) -> RenderedText {
        let base = baseURL ?? link.flatMap { URL(string: $0) }
        switch effectiveBodyFormat {
        case .plain: return RenderedText(body: TerminalText.lines(body), links: [])
        case .html: return HTMLText.render(body, baseURL: base)
        case .markdown: return MarkdownText.render(body, baseURL: base)
        }
    }

    /// The title on one line as a reader reads it: character references decoded
    /// (`It&#8217;s` is `It’s`, whatever the source), the tags of an HTML post's title
    /// (`<em>…</em>`) dropped, control characters and escape sequences dropped. A title
    /// with neither reference nor markup is only cleaned.
    public var readableTitle: String {
        Self.readableLine(title, html: effectiveBodyFormat == .html) ?? ""
    }

    /// The author on one line: references decoded, controls dropped; `nil` without one.
    public var readableAuthor: String? {
        author.flatMap { Self.readableLine($0, html: false) }
    }

    /// `text` on one line: references decoded; with `html`, known tags dropped too.
    static func readableLine(_ text: String, html: Bool) -> String? {
        if html, PostBodyFormat.hasKnownTag(text) {
            return WhiteSpace.collapsed(TerminalText.line(HTMLText.render(text).body))
        }
        let decoded = HTMLText.decodeEntities(text)
        return decoded == text ? TerminalText.line(text) : WhiteSpace.collapsed(TerminalText.line(decoded))
    }
}
