/// Widths in terminal columns, as a terminal lays text out: East Asian wide and fullwidth
/// characters and emoji take 2 columns, combining marks and controls 0, the rest 1.
///
/// Counted per grapheme cluster (`Character`): a base and its combining marks, or an emoji
/// ZWJ sequence, is one glyph on screen, as wide as its first scalar (2 for emoji shown as
/// emoji). `String.count` would count "é" written as e + U+0301 as 1 but "漢" also as 1.
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
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control, .format: return 0
        default: break
        }
        if properties.isEmojiPresentation { return 2 }
        // A text-style emoji turned into an emoji by VS16 (U+FE0F) is drawn 2 wide.
        if properties.isEmoji, character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return isWide(first.value) ? 2 : 1
    }

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
