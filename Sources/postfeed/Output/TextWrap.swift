/// Line breaking for the terminal, by display columns (``DisplayWidth``): at spaces, and
/// between wide characters, which need no space to break at (Chinese, Japanese and Korean
/// text, as UAX #14 allows). `show` and `browse` both wrap with it.
enum TextWrap {
    /// `text` (one paragraph) broken into lines of at most `columns` terminal columns; its
    /// own leading spaces (an indent) kept. Lines after the first start at `hangingIndent`
    /// (the help's description column) when that leaves at least half the width. A word
    /// wider than a line is broken across lines when `breakingLongWords` (a screen's
    /// layout), else kept whole on a line of its own (`show`: a URL stays one piece to copy).
    static func lines(_ text: Substring, columns: Int, hangingIndent: Int = 0, breakingLongWords: Bool = true) -> [String] {
        let columns = max(1, columns)
        let indent = hangingIndent > 0 && hangingIndent * 2 <= columns ? hangingIndent : 0
        var lines: [String] = []
        var line = ""
        var width = 0
        // The width of this line's hanging indent: nothing of the text is on it before that.
        var lineStart = 0
        func breakLine() {
            lines.append(line)
            (line, width, lineStart) = (String(repeating: " ", count: indent), indent, indent)
        }
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            for (pieceIndex, piece) in pieces(of: word).enumerated() {
                // A space before a word (none at the start of the text); none inside one.
                var spaced = index > 0 && pieceIndex == 0
                if width > lineStart, width + (spaced ? 1 : 0) + DisplayWidth.of(piece) > columns {
                    breakLine()
                    spaced = false
                }
                if spaced {
                    line += " "
                    width += 1
                }
                guard breakingLongWords else {
                    line += piece
                    width += DisplayWidth.of(piece)
                    continue
                }
                for character in piece {
                    let characterWidth = DisplayWidth.of(character)
                    if width + characterWidth > columns, width > lineStart {
                        breakLine()
                    }
                    line.append(character)
                    width += characterWidth
                }
            }
        }
        lines.append(line)
        return lines
    }

    /// `word` cut where a line may break inside it: before and after each wide character;
    /// a run of narrow ones stays together. One empty piece for an empty word (a second
    /// space in a row, kept).
    private static func pieces(of word: Substring) -> [Substring] {
        guard word.contains(where: { DisplayWidth.of($0) == 2 }) else { return [word] }
        var pieces: [Substring] = []
        var start = word.startIndex
        var index = word.startIndex
        while index < word.endIndex {
            let next = word.index(after: index)
            if DisplayWidth.of(word[index]) == 2 {
                if start < index { pieces.append(word[start..<index]) }
                pieces.append(word[index..<next])
                start = next
            }
            index = next
        }
        if start < word.endIndex { pieces.append(word[start..<word.endIndex]) }
        return pieces
    }
}
