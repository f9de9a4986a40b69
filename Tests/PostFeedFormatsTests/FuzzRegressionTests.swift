import Foundation
import PostFeedFormats
import Testing

/// Inputs the fuzz targets (Fuzz/Sources/fuzz-feed, fuzz-html-text) crashed on, kept as
/// tests. Each is also a seed in Fuzz/Corpus/.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// fuzz-html-text, 2026-11-28: Markdown whose soft line break was followed by NUL
    /// bytes. The layout trimmed the line, then the control-character cleaning dropped the
    /// NULs and left the soft break's space at the line's end.
    static let trailingSpaceAfterNUL = """
        SXQmIzgyMXE7c3AgYSY7YW1tcDsgJiN4MjAxZTFlLm9yZyAidCIpIGFuZCAhW2ltZ10oL2kucG5nKS4KAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
        AAAAAAAAAAAAAAAAAAAAAAAAAAAKLSBvbmUKLSB0dyBvCiAqIG5lc3RlZAoxLiBmaXJzdAoKZQoJZmX/////////////////////////////////////////////\
        ////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////\
        bmNlCmAKPGh0dHBzOi8vYXV0by5leGFtcGxlLz4gc25ha2VfY2FzYT0xJmNvcHk9Mg==
        """

    /// fuzz-html-text, 2026-11-28 (CI rehearsal): an `href` of control characters cleaned
    /// down to nothing left its reference line as `[1] `, ending in a space.
    static let emptyLinkReference = "PD5wAAAAAAAAAABjb3B5AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGUAAAAAAAAAAAAAUmWUG1szMbEHIOKArnJldmVycwA8PC9wPjxhIGhyZWY9GQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAZQAAAAAAAAAAAAAAAAAAAAAAZQAAAAAAAAAAAABSZZQbWzMxsQcg4oCucmV2ZXJzADw8L3A+PGEgaHJlZj0ZAAAAAAAAAAAAAAAAAAAAAAAAAAAAACYjMTQ2OyAmaGVsbGlwOSAmbmJzcDsgJmFwb3MrAgAAAAAAbGlwOyAmbmJzcDsgJmFwb3M7ICZ1bmtub/////////////////////////////////////////////////////9uADsgd3Y2IzQzNDsgJiN4MjAxODAwOzwvcD4AAAAAAAAAAAAAAAAAZQAAAAAAAAAAAABSZZQbWzEwsQcg4gCucmV2ZXJzACJodAA8"

    @Test("a link that cleans down to nothing leaves no reference line ending in a space")
    func emptyLinkReferenceHasNoTrailingSpace() throws {
        let bytes = try #require(Data(base64Encoded: Self.emptyLinkReference))
        let input = String(decoding: bytes, as: UTF8.self)
        for rendered in [HTMLText.render(input), MarkdownText.render(input)] {
            let lines = rendered.text.split(separator: "\n", omittingEmptySubsequences: false)
            let endingInSpace = lines.filter { $0.hasSuffix(" ") }
            #expect(endingInSpace.isEmpty, "\(rendered.text.debugDescription)")
        }
    }

    @Test("no line of rendered text ends in a space left by dropped control characters")
    func trailingSpaceAfterControlCharacters() throws {
        let bytes = try #require(Data(base64Encoded: Self.trailingSpaceAfterNUL))
        let input = String(decoding: bytes, as: UTF8.self)
        for rendered in [MarkdownText.render(input), HTMLText.render(input)] {
            let lines = rendered.text.split(separator: "\n", omittingEmptySubsequences: false)
            let endingInSpace = lines.filter { $0.hasSuffix(" ") }
            #expect(endingInSpace.isEmpty, "\(rendered.text.debugDescription)")
        }
        #expect(MarkdownText.render("a\n\u{0}\u{0}\nb").body == "a\n\nb", "a line of controls only is a blank line")
    }

    /// fuzz-feed, 2026-11-28: an item link `httpS://…` was kept with its scheme as written;
    /// a loader comparing schemes would take it for something else. Schemes are lowercased.
    @Test("an upper-case http scheme is kept, lowercased; other schemes are not kept")
    func upperCaseScheme() throws {
        let body = Data("""
            <rss version="2.0"><channel><title>t</title>
            <item><link>httpS://blog.example.org/hello/</link><enclosure url="HTTP://blog.example.org/a.png" type="image/png"/></item>
            <item><link>FILE:///etc/passwd</link><guid>file</guid></item>
            </channel></rss>
            """.utf8)
        let feed = try FeedParser.parse(body, contentType: nil, baseURL: nil)
        try #require(feed.items.count == 2)
        #expect(feed.items[0].link?.absoluteString == "https://blog.example.org/hello/")
        #expect(feed.items[0].id == "https://blog.example.org/hello/")
        #expect(feed.items[0].imageURL?.absoluteString == "http://blog.example.org/a.png")
        #expect(feed.items[1].link == nil)
    }
}
