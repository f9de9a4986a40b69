/// Text from outside (a server's titles, bodies, authors, error bodies; a file name) made
/// safe to write to a terminal: a backend must never be able to drive the reader's
/// terminal (set its title, clear it, recolour it, ring it, move the cursor) or break the
/// layout with a stray newline.
///
/// C0 controls, DEL and C1 controls (ESC and CSI among them) are dropped; a tab becomes a
/// space. ``terminalLine`` also turns line breaks into spaces (titles, authors, one-line
/// messages); ``terminalLines`` keeps `\n` (bodies) and drops `\r`. Everything printable,
/// CJK, emoji and combining marks included, is kept as it is.
extension StringProtocol {
    /// One line: every line break becomes a space, other controls are dropped.
    var terminalLine: String { Self.cleaned(self, keepingNewlines: false) }

    /// Lines: `\n` kept (a `\r\n` counts as one), other controls dropped.
    var terminalLines: String { Self.cleaned(self, keepingNewlines: true) }

    private static func cleaned(_ text: Self, keepingNewlines: Bool) -> String {
        // Fast path: most text has no control character at all.
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var result = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
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

    /// C0 controls, DEL, C1 controls, and the line and paragraph separators (which some
    /// terminals treat as line breaks).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
