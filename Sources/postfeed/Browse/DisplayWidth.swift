/// Widths in terminal columns, as a terminal lays text out — the one width function of the
/// CLI (lists, `page`, `browse`, wrapping): East Asian wide and fullwidth characters and
/// emoji take 2 columns; nonspacing and enclosing marks, controls, invisible format
/// characters (ZWSP, ZWJ, bidi marks) and conjoining Hangul vowels and finals 0; the rest
/// 1 — spacing marks (Devanagari `ि`, `ी`), the soft hyphen U+00AD and the prepended
/// concatenation marks (U+0600…) included, which terminals draw a column wide.
///
/// Counted per grapheme cluster (`Character`): an emoji sequence (ZWJ, flag) is one glyph
/// 2 wide, a skin-tone modifier adding 2 (as tmux draws it); any other cluster is the sum of its scalars (`हि` is 2, `é` as e +
/// U+0301 is 1). `String.count` would count "漢" as 1. Checked against what tmux draws
/// (`DisplayWidthTerminalTests`). One deliberate difference: a text-style emoji made an
/// emoji by VS16 (`❤️`) counts 2, as most terminals draw it; tmux 3.3 draws it 1, and
/// counting one column too many only leaves a gap, never a wrapped line.
enum DisplayWidth {
    /// Columns `text` takes on a terminal.
    ///
    ///     DisplayWidth.of("abc")   // 3
    ///     DisplayWidth.of("漢字")   // 4
    ///     DisplayWidth.of("e\u{301}") // 1
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Columns one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        // Skin-tone modifiers are drawn as a second glyph by terminals that do not join
        // them (tmux 3.3 draws 👍🏽 4 wide): counting them keeps the line from wrapping there,
        // and costs two blank columns where they are joined.
        if properties.isEmojiPresentation { return 2 + 2 * scalars.dropFirst().filter(\.properties.isEmojiModifier).count }
        // A text-style emoji turned into an emoji by VS16 (U+FE0F) is drawn 2 wide.
        if properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// Columns one scalar takes on its own (inside a cluster that is no emoji sequence).
    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control: return 0
        case .format: return drawnFormatCharacters.contains(scalar.value) ? 1 : 0
        default: break
        }
        // Conjoining Hangul vowels and finals join the initial before them (ᄀ + ᅡ is 가).
        if (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) { return 0 }
        return isWide(scalar.value) ? 2 : 1
    }

    /// Format characters (Cf) that terminals draw a column wide, as wcwidth counts them: the
    /// soft hyphen and the prepended concatenation marks. The others (ZWSP, ZWJ, bidi marks,
    /// BOM, tags) take none.
    private static let drawnFormatCharacters: Set<UInt32> = [
        0x00AD, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD,
    ]

    /// The longest prefix of `text` that fits in `columns`, ending with "…" when cut.
    static func cut(_ text: String, toColumns columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }  // keep one column for the ellipsis
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` cut to `columns`, then padded with spaces to exactly `columns`.
    static func fit(_ text: String, toColumns columns: Int) -> String {
        let cut = cut(text, toColumns: columns)
        return cut + String(repeating: " ", count: max(0, columns - of(cut)))
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, as wcwidth counts them.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
