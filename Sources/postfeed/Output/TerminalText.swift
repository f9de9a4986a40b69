import PostFeed
import PostFeedFormats

/// Text from outside (a server's titles, bodies, authors, error bodies; a file name) made
/// safe to write to a terminal, by PostFeedFormats' ``TerminalText`` (the one
/// implementation): a backend must never be able to drive the reader's terminal (set its
/// title, clear it, recolour it, ring it, move the cursor) or break the layout with a stray
/// newline. ``terminalLine`` also turns line breaks into spaces (titles, authors, one-line
/// messages); ``terminalLines`` keeps `\n` (bodies) and drops `\r`.
extension StringProtocol {
    /// One line: every line break becomes a space, other controls are dropped.
    var terminalLine: String { TerminalText.line(String(self)) }

    /// Lines: `\n` kept (a `\r\n` counts as one), other controls dropped.
    var terminalLines: String { TerminalText.lines(String(self)) }

    /// A path (or other name the user typed) as printed in a message: every control
    /// character escaped (`\n`, `\r`, `\t`, `\u{1B}`), so the name shown is the name,
    /// one line, and cannot drive the terminal; everything else as it is.
    var shownPath: String {
        guard unicodeScalars.contains(where: TerminalText.isControl) else { return String(self) }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if TerminalText.isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

extension Post {
    /// This post as every view shows it, as people read it: the title and author on one
    /// line each with character references decoded (`It&#8217;s` is `It’s`), the body laid
    /// out as text when it is HTML or Markdown (``Post/readableBody(baseURL:)``: paragraphs,
    /// lists, quotes, links numbered and listed under it), a plain body's lines kept; every
    /// control and escape sequence dropped. `list`, `page`, `show` (through
    /// ``PostRenderer``) and `browse` (its entries and detail view) clean a post once,
    /// before anything is laid out or counted.
    var forTerminal: Post {
        var post = self
        post.title = readableTitle
        post.author = readableAuthor
        post.body = readableBody().text
        return post
    }
}

extension Post {
    /// ``forTerminal`` without the body (left as it is): what a list entry shows, without
    /// laying out a body it never prints.
    var headingForTerminal: Post {
        var post = self
        post.title = readableTitle
        post.author = readableAuthor
        return post
    }
}
