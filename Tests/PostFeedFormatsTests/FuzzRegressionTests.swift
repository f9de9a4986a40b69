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
}
