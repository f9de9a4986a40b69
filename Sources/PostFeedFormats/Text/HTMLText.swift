internal import CLibXML2
import Foundation

/// HTML bodies as terminal text, through libxml2's HTML parser (no network, errors
/// recovered from as browsers do).
///
/// - block elements (`p`, `div`, …) become paragraphs separated by blank lines, `<br>` a
///   line break;
/// - `ul`/`ol` items start with `• ` / `1. ` (nested lists indented, `◦ `, `▪ `), continuation
///   lines indented to match; `blockquote` lines start with `> `;
/// - `h1`–`h6` stand on their own line, in capitals;
/// - `pre` is kept as it is (tabs expanded);
/// - a link is its text followed by `[n]`, its target listed as `[n] url` under the text
///   (``RenderedText/text``); an image is `[image: alt]`; an `iframe`, `video` or `audio`
///   is `[embed]`, `[video]`, `[audio]` with its source as a link;
/// - `script`, `style`, `head`, `noscript`, `template` and comments are dropped;
/// - entities and numeric references are decoded; control characters and escape
///   sequences are dropped (``TerminalText/lines(_:)``).
///
/// ```swift
/// HTMLText.render("<p>Caf&eacute; <a href='/menu'>menu</a></p>", baseURL: URL(string: "https://example.com/"))
///     .text   // "Café menu [1]\n\n[1] https://example.com/menu"
/// ```
public enum HTMLText {
    /// Renders `html` (a fragment or a whole document, UTF-8).
    /// - Parameter baseURL: what relative links and image sources resolve against.
    public static func render(_ html: String, baseURL: URL? = nil) -> RenderedText {
        // libxml2 drops the ESC of an escape sequence and keeps the rest (`[31m`) as text:
        // take sequences (and other controls) out whole first.
        let html = TerminalText.removingEscapeSequences(html)
        guard html.contains(where: { $0 == "<" || $0 == "&" }) else {
            // Plain text in an HTML field: no parser needed, white space still collapses.
            var layout = TextLayout()
            layout.text(html)
            return RenderedText(body: TerminalText.laidOut(layout.finish()), links: [])
        }
        guard let document = HTMLDocument(html) else { return RenderedText(body: "", links: []) }
        var walker = HTMLWalker(baseURL: baseURL)
        document.withRoot { root in walker.walk(root) }
        return walker.finish()
    }
}

/// A parsed HTML document: owns libxml2's tree and frees it in `deinit`.
final class HTMLDocument {
    private let document: htmlDocPtr

    init?(_ html: String) {
        _ = libxml2Initialized
        let handlers = pf_xml_silence_errors()
        defer { pf_xml_restore_errors(handlers) }
        var html = html
        let parsed: htmlDocPtr? = html.withUTF8 { bytes in
            guard bytes.count <= Int(Int32.max), let base = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                  let context = htmlNewParserCtxt()
            else { return nil }
            defer { htmlFreeParserCtxt(context) }
            let options = Int32(
                HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                    | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NODEFDTD.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
                    | HTML_PARSE_COMPACT.rawValue)
            return htmlCtxtReadMemory(context, base, Int32(bytes.count), nil, "UTF-8", options)
        }
        guard let parsed else { return nil }
        document = parsed
    }

    deinit {
        xmlFreeDoc(document)
    }

    /// Runs `body` with the document node; the tree lives until `body` returns.
    func withRoot<Result>(_ body: (xmlNodePtr) -> Result) -> Result {
        defer { withExtendedLifetime(self) {} }
        return document.withMemoryRebound(to: xmlNode.self, capacity: 1) { body($0) }
    }
}
