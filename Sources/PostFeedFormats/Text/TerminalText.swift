/// Text from outside made safe to write to a terminal: a feed must never be able to drive
/// the reader's terminal (set its title, clear it, recolour it, move the cursor) or
/// reorder a line.
///
/// Escape sequences go whole: a CSI (`ESC [ 31 m`, C1 `CSI`) with its parameters, an OSC,
/// DCS, APC, PM or SOS string up to its terminator, a two-byte escape (`ESC c`); an
/// introducer never terminated goes alone, the text after it stays. Other C0 controls,
/// DEL, C1 controls and bidirectional overrides, embeddings and isolates are dropped; a
/// tab becomes a space. Everything printable is kept as it is.
///
/// The one implementation of these rules: the library's rendered text is clean on its own,
/// and the CLI's `terminalLine`/`terminalLines` call these.
public enum TerminalText {
    /// One line: every line break becomes a space, other controls are dropped.
    public static func line(_ text: String) -> String { cleaned(text, keepingNewlines: false) }

    /// Lines: `\n` kept (a `\r\n` counts as one), other controls dropped.
    public static func lines(_ text: String) -> String { cleaned(text, keepingNewlines: true) }

    /// Laid-out text made terminal-safe: ``lines(_:)``, then white space that the dropped
    /// characters left at a line's end trimmed, runs of empty lines made one, and empty
    /// lines at the start and end removed.
    static func laidOut(_ text: String) -> String {
        let cleaned = lines(text)
        var result: [Substring] = []
        for line in cleaned.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = line
            while let last = line.last, last == " " { line.removeLast() }
            if line.isEmpty, result.last?.isEmpty ?? true { continue }
            result.append(line)
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.joined(separator: "\n")
    }

    /// Escape sequences and controls out, but tabs, `\r` and `\n` kept: markup before it is
    /// parsed (a `<pre>`'s tabs still matter; the parser drops a lone ESC but would keep
    /// the rest of its sequence as text).
    static func removingEscapeSequences(_ text: String) -> String {
        cleaned(text, keepingNewlines: true, keepingLayout: true)
    }

    private static func cleaned(_ text: String, keepingNewlines: Bool, keepingLayout: Bool = false) -> String {
        // Fast path: most text has no control character at all.
        let kept: (Unicode.Scalar) -> Bool = { scalar in
            (keepingNewlines && scalar == "\n") || (keepingLayout && (scalar == "\t" || scalar == "\r"))
        }
        guard text.unicodeScalars.contains(where: { isControl($0) && !kept($0) }) else { return text }
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
            if keepingLayout, kept(scalar) {
                result.append(scalar)
                continue
            }
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
    /// isolates (U+202A–U+202E, U+2066–U+2069), which would reorder the rest of the line on
    /// a terminal that does bidi (an author's U+202E turning "· id 1" around).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
