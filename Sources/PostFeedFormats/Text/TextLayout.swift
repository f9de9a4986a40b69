/// Lays text out in blocks for a terminal without colour: what ``HTMLText`` and
/// ``MarkdownText`` both drive. Inline text collapses white space; blocks are separated by
/// a line break or a blank line; quotes and list items prefix their lines (`> `, `• `,
/// `1. `, continuation lines indented to match); preformatted text is kept as it is, tabs
/// expanded. Lines are not wrapped: the terminal's width is the caller's.
struct TextLayout {
    /// What goes between two blocks.
    enum Separation: Int, Comparable {
        case none, line, blank
        static func < (lhs: Separation, rhs: Separation) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct Prefix {
        var first: String
        var rest: String
        var used = false
        /// While the first line is not out, blocks inside ask for no more than this.
        var separation: Separation
    }

    /// Deeper quotes and lists than this are laid out at this depth (a hostile document
    /// nesting 10,000 lists would otherwise indent each line by 20,000 spaces).
    static let maximumPrefixDepth = 24

    private var lines: [String] = []
    private var paragraph: [Unicode.Scalar] = []
    private var pendingSpace = false
    private var separation: Separation = .none
    private var prefixes: [Prefix] = []
    private var ignoredPrefixes = 0
    private var verbatimDepth = 0
    private var uppercaseDepth = 0

    // MARK: Inline

    /// Text as HTML shows it: runs of white space are one space (unless preformatted).
    mutating func text(_ text: some StringProtocol) {
        if verbatimDepth > 0 {
            paragraph.append(contentsOf: text.unicodeScalars)
            return
        }
        let scalars = uppercaseDepth > 0 ? Array(text.uppercased().unicodeScalars) : Array(text.unicodeScalars)
        for scalar in scalars {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0C}":
                pendingSpace = true
            default:
                if pendingSpace, let last = paragraph.last, last != "\n" { paragraph.append(" ") }
                pendingSpace = false
                paragraph.append(scalar == "\u{A0}" ? " " : scalar)
            }
        }
    }

    /// Words that must be kept as they are (a link's `[n]`), after a space when text precedes.
    mutating func word(_ word: String) {
        if verbatimDepth == 0, let last = paragraph.last, last != " ", last != "\n" { paragraph.append(" ") }
        pendingSpace = false
        paragraph.append(contentsOf: word.unicodeScalars)
    }

    /// A line break inside a paragraph (`<br>`).
    mutating func lineBreak() {
        pendingSpace = false
        paragraph.append("\n")
    }

    /// Whether the current paragraph holds any text yet.
    var paragraphIsEmpty: Bool { paragraph.allSatisfy { $0 == " " || $0 == "\n" } }

    /// How much text the current paragraph holds, and a way to read what came after it.
    var paragraphMark: (lines: Int, length: Int) { (lines.count, paragraph.count) }

    /// The text added since `mark`, or `nil` when a block ended in between.
    func text(since mark: (lines: Int, length: Int)) -> String? {
        guard mark.lines == lines.count, mark.length <= paragraph.count else { return nil }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: paragraph[mark.length...])
        return WhiteSpace.trimmed(String(result))
    }

    // MARK: Blocks

    /// Ends the current paragraph and asks for `separation` before the next one.
    mutating func block(_ separation: Separation) {
        flush()
        var requested = separation
        if let top = prefixes.last, !top.used { requested = min(requested, top.separation) }
        self.separation = max(self.separation, requested)
    }

    /// Starts a prefixed block (a quote, a list item): its first line begins with `first`,
    /// later ones with `rest`.
    mutating func pushPrefix(first: String, rest: String, separation: Separation) {
        block(separation)
        guard prefixes.count < Self.maximumPrefixDepth else {
            ignoredPrefixes += 1
            return
        }
        prefixes.append(Prefix(first: first, rest: rest, separation: separation))
    }

    /// Ends the innermost prefixed block.
    mutating func popPrefix(separation: Separation) {
        block(separation)
        if ignoredPrefixes > 0 {
            ignoredPrefixes -= 1
        } else if !prefixes.isEmpty {
            prefixes.removeLast()
        }
    }

    /// Text inside is kept as it is (`<pre>`, a code fence).
    mutating func beginVerbatim() {
        block(.blank)
        verbatimDepth += 1
    }

    /// Ends ``beginVerbatim()``.
    mutating func endVerbatim() {
        flush()
        verbatimDepth = max(0, verbatimDepth - 1)
        separation = max(separation, .blank)
    }

    /// Text inside is upper-cased (headings).
    mutating func beginUppercase() { uppercaseDepth += 1 }

    /// Ends ``beginUppercase()``.
    mutating func endUppercase() { uppercaseDepth = max(0, uppercaseDepth - 1) }

    /// A line of its own (a rule): `---`.
    mutating func rule() {
        block(.blank)
        paragraph.append(contentsOf: "---".unicodeScalars)
        block(.blank)
    }

    /// The laid-out text.
    mutating func finish() -> String {
        flush()
        return lines.joined(separator: "\n")
    }

    // MARK: Output

    private mutating func flush() {
        defer {
            paragraph.removeAll(keepingCapacity: true)
            pendingSpace = false
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: paragraph)
        var paragraphLines = String(text).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            verbatimDepth > 0 ? Self.expandingTabs(line) : String(line)
        }
        // Leading and trailing empty lines go; so does trailing space on each line.
        paragraphLines = paragraphLines.map { Self.trimmingTrailingSpace($0) }
        while let first = paragraphLines.first, first.allSatisfy(\.isWhitespace) { paragraphLines.removeFirst() }
        while let last = paragraphLines.last, last.allSatisfy(\.isWhitespace) { paragraphLines.removeLast() }
        guard !paragraphLines.isEmpty else { return }
        if !lines.isEmpty {
            switch separation {
            case .blank: lines.append(Self.trimmingTrailingSpace(restPrefix))
            case .line, .none: break
            }
        }
        separation = .none
        for line in paragraphLines {
            let trimmed = verbatimDepth > 0 ? line : String(line.drop { $0 == " " })
            lines.append(Self.trimmingTrailingSpace(nextPrefix() + trimmed))
        }
    }

    /// The prefix of a blank line: that of the blocks already under way (a quote just
    /// opened has not started yet: the blank line before it is outside it).
    private var restPrefix: String { prefixes.filter(\.used).map(\.rest).joined() }

    private mutating func nextPrefix() -> String {
        var result = ""
        for index in prefixes.indices {
            if prefixes[index].used {
                result += prefixes[index].rest
            } else {
                result += prefixes[index].first
                prefixes[index].used = true
            }
        }
        return result
    }

    private static func trimmingTrailingSpace(_ line: String) -> String {
        var line = Substring(line)
        while let last = line.last, last == " " || last == "\t" { line.removeLast() }
        return String(line)
    }

    /// Tabs to spaces, to the next multiple of 8 columns (the control-character cleaning
    /// would make each tab one space and lose the code's alignment).
    private static func expandingTabs(_ line: Substring) -> String {
        guard line.contains("\t") else { return String(line) }
        var result = ""
        var column = 0
        for character in line {
            if character == "\t" {
                let spaces = 8 - column % 8
                result += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                result.append(character)
                column += 1
            }
        }
        return result
    }
}

import Foundation
