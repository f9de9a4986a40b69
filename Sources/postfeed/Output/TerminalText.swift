import PostFeed
import PostFeedPreview

/// Text from outside (a server's titles, bodies, authors, error bodies; a file name) made
/// safe to write to a terminal: a backend must never be able to drive the reader's
/// terminal (set its title, clear it, recolour it, ring it, move the cursor) or break the
/// layout with a stray newline.
///
/// Escape sequences go whole: a CSI (`ESC [ 31 m`, C1 `CSI`) with its parameters, an OSC,
/// DCS, APC, PM or SOS string (`ESC ] 2 ; title BEL`) up to its terminator, a two-byte
/// escape (`ESC c`); an introducer never terminated goes alone, the text after it stays.
/// Other C0 controls, DEL, C1 controls and bidirectional overrides, embeddings and isolates
/// are dropped; a tab becomes a space.
/// ``terminalLine`` also turns line breaks into spaces (titles, authors, one-line
/// messages); ``terminalLines`` keeps `\n` (bodies) and drops `\r`. Everything printable,
/// CJK, emoji and combining marks included, is kept as it is.
extension StringProtocol {
    /// One line: every line break becomes a space, other controls are dropped.
    var terminalLine: String { Self.cleaned(self, keepingNewlines: false) }

    /// A path (or other name the user typed) as printed in a message: every control
    /// character escaped (`\n`, `\r`, `\t`, `\u{1B}`), so the name shown is the name,
    /// one line, and cannot drive the terminal; everything else as it is.
    var shownPath: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return String(self) }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if Self.isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Lines: `\n` kept (a `\r\n` counts as one), other controls dropped.
    var terminalLines: String { Self.cleaned(self, keepingNewlines: true) }

    private static func cleaned(_ text: Self, keepingNewlines: Bool) -> String {
        // Fast path: most text has no control character at all.
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        var previousWasCarriageReturn = false
        while index < scalars.count {
            let scalar = scalars[index]
            defer { previousWasCarriageReturn = scalar == "\r" }
            if let end = escapeSequenceEnd(in: scalars, at: index) {
                index = end
                continue
            }
            index += 1
            switch scalar {
            case "\t":
                result.append(" ")
            case "\n" where keepingNewlines:
                result.append("\n")
            case "\n" where previousWasCarriageReturn:
                continue  // already a space for the "\r"
            case "\r" where keepingNewlines:
                continue  // "\r\n" is one line break; a lone "\r" would overwrite the line
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}":
                result.append(" ")
            default:
                if isControl(scalar) { continue }
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Where the escape sequence starting at `start` ends (the index after it), or `nil`
    /// when none starts there or it is never completed (then only its introducer goes).
    private static func escapeSequenceEnd(in scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let first = scalars[start].value
        var index: Int
        var kind: UInt32
        if first == 0x1B {
            guard start + 1 < scalars.count else { return nil }
            let next = scalars[start + 1].value
            switch next {
            case 0x5B: kind = 0x9B  // ESC [  = CSI
            case 0x5D: kind = 0x9D  // ESC ]  = OSC
            case 0x50, 0x58, 0x5E, 0x5F: kind = 0x90  // DCS, SOS, PM, APC: strings
            case 0x20...0x7E: return start + 2  // a two-byte escape (ESC c, ESC 7, ESC =)
            default: return nil
            }
            index = start + 2
        } else if first == 0x9B || first == 0x9D || first == 0x90 || first == 0x98 || first == 0x9E || first == 0x9F {
            kind = first == 0x9B ? 0x9B : first == 0x9D ? 0x9D : 0x90
            index = start + 1
        } else {
            return nil
        }
        if kind == 0x9B {
            // Parameters and intermediates, then one final byte.
            while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
            guard index < scalars.count, (0x40...0x7E).contains(scalars[index].value) else { return nil }
            return index + 1
        }
        // A string, ended by BEL, ST (ESC \) or C1 ST.
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B where index + 1 < scalars.count && scalars[index + 1] == "\\": return index + 2
            default: index += 1
            }
        }
        return nil
    }

    /// C0 controls, DEL, C1 controls, the line and paragraph separators (which some
    /// terminals treat as line breaks), and the bidirectional embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069), which would reorder the rest of the line
    /// on a terminal that does bidi (an author's U+202E turning "· id 1" around).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}

extension Post {
    /// This post as every view shows it: title and author on one line each, the body's
    /// lines kept, every other control and escape sequence dropped. `list`, `page`, `show`
    /// (through ``PostRenderer``) and `browse` (its entries and detail view) clean a post
    /// once, before anything is laid out or counted.
    var forTerminal: Post {
        var post = self
        post.title = title.terminalLine
        post.author = author?.terminalLine
        post.body = body.terminalLines
        return post
    }
}
