import Foundation

/// Markdown bodies (what Lemmy's API and similar send) as terminal text, laid out like
/// ``HTMLText``'s: paragraphs, `*`/`-`/`+` and numbered lists, `>` quotes, `#` headings in
/// capitals, code fences kept as they are, `[text](url)` as `text [n]` with the
/// reference listed, `![alt](src)` as `[image: alt]`, `<https://…>` autolinks, emphasis
/// markers and backslash escapes removed, entities decoded. A small subset of
/// CommonMark: nested emphasis, reference-style links and HTML blocks are shown as text.
public enum MarkdownText {
    /// Renders `markdown`.
    /// - Parameter baseURL: what relative links and image sources resolve against.
    public static func render(_ markdown: String, baseURL: URL? = nil) -> RenderedText {
        var renderer = MarkdownRenderer(baseURL: baseURL)
        // Controls out before the layout, so that none leaves a space behind.
        let lines = TerminalText.removingEscapeSequences(markdown).replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        renderer.blocks(lines.map(String.init), depth: 0, inItem: false)
        return renderer.finish()
    }
}

private struct MarkdownRenderer {
    let baseURL: URL?
    var layout = TextLayout()
    var links: [String] = []
    var linkNumbers: [String: Int] = [:]
    var images: [String] = []

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    mutating func finish() -> RenderedText {
        RenderedText(body: TerminalText.laidOut(layout.finish()), links: links.map(TerminalText.line), images: images.map(TerminalText.line))
    }

    // MARK: Blocks

    /// Lays out `lines`; `inItem` when they are a list item's (a nested list then follows
    /// its item's text without a blank line).
    mutating func blocks(_ lines: [String], depth: Int, inItem: Bool) {
        var index = 0
        // A list after a blank line stands apart; one that interrupts a paragraph or
        // follows another list's item does not.
        var afterBlankLine = false
        var paragraph: [String] = []
        func isBlank(_ line: String) -> Bool { line.allSatisfy(\.isWhitespace) }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if isBlank(line) {
                flush(&paragraph)
                afterBlankLine = true
                index += 1
                continue
            }
            defer { afterBlankLine = false }
            if indent < 4, let fence = Self.fence(trimmed) {
                flush(&paragraph)
                layout.beginVerbatim()
                index += 1
                var code: [String] = []
                while index < lines.count, !lines[index].drop(while: { $0 == " " }).hasPrefix(fence) {
                    code.append(lines[index])
                    index += 1
                }
                layout.text(code.joined(separator: "\n"))
                layout.endVerbatim()
                index += 1
                continue
            }
            if indent < 4, trimmed.hasPrefix("#") {
                let hashes = trimmed.prefix { $0 == "#" }
                let rest = trimmed.dropFirst(hashes.count)
                if hashes.count <= 6, rest.isEmpty || rest.first == " " {
                    flush(&paragraph)
                    layout.block(.blank)
                    layout.beginUppercase()
                    inline(WhiteSpace.trimmed(rest).trimmingCharacters(in: CharacterSet(charactersIn: "#")))
                    layout.endUppercase()
                    layout.block(.blank)
                    index += 1
                    continue
                }
            }
            if indent < 4, Self.isRule(trimmed) {
                flush(&paragraph)
                layout.rule()
                index += 1
                continue
            }
            if indent < 4, trimmed.hasPrefix(">") {
                flush(&paragraph)
                var quoted: [String] = []
                while index < lines.count {
                    let inner = lines[index].drop { $0 == " " }
                    guard inner.hasPrefix(">") else { break }
                    var rest = inner.dropFirst()
                    if rest.first == " " { rest = rest.dropFirst() }
                    quoted.append(String(rest))
                    index += 1
                }
                layout.pushPrefix(first: "> ", rest: "> ", separation: .blank)
                if depth < TextLayout.maximumPrefixDepth { blocks(quoted, depth: depth + 1, inItem: false) } else { inline(quoted.joined(separator: " ")) }
                layout.popPrefix(separation: .blank)
                continue
            }
            if let item = Self.listItem(line) {
                flush(&paragraph)
                layout.block(afterBlankLine && !inItem ? .blank : .line)
                // The item's lines: its first, then lines indented past its marker or
                // continuing it lazily, until a blank line followed by something not indented.
                var itemLines = [item.text]
                index += 1
                while index < lines.count {
                    let next = lines[index]
                    let nextIndent = next.prefix { $0 == " " }.count
                    if isBlank(next) {
                        let following = index + 1 < lines.count ? lines[index + 1] : ""
                        guard following.prefix(while: { $0 == " " }).count >= item.contentIndent, !isBlank(following) else { break }
                        itemLines.append("")
                    } else if nextIndent >= item.contentIndent {
                        itemLines.append(String(next.dropFirst(item.contentIndent)))
                    } else if Self.listItem(next) != nil || next.drop(while: { $0 == " " }).hasPrefix(">") {
                        break
                    } else {
                        itemLines.append(next)
                    }
                    index += 1
                }
                layout.pushPrefix(first: item.marker, rest: String(repeating: " ", count: item.marker.count), separation: .line)
                if depth < TextLayout.maximumPrefixDepth { blocks(itemLines, depth: depth + 1, inItem: true) } else { inline(itemLines.joined(separator: " ")) }
                layout.popPrefix(separation: .line)
                continue
            }
            paragraph.append(line)
            index += 1
        }
        flush(&paragraph)
    }

    private mutating func flush(_ paragraph: inout [String]) {
        guard !paragraph.isEmpty else { return }
        layout.block(.blank)
        for (offset, line) in paragraph.enumerated() {
            // Two trailing spaces or a backslash: a hard line break; else a soft one (a space).
            var text = Substring(line)
            var hardBreak = false
            if text.hasSuffix("  ") {
                hardBreak = true
            } else if text.hasSuffix("\\") {
                hardBreak = true
                text = text.dropLast()
            }
            inline(String(text))
            if offset < paragraph.count - 1 {
                if hardBreak { layout.lineBreak() } else { layout.text(" ") }
            }
        }
        // What follows asks for its own separation: a blank line before the next paragraph,
        // none before a list item's nested list.
        layout.block(.none)
        paragraph.removeAll()
    }

    private static func fence(_ line: Substring) -> String? {
        for marker in ["```", "~~~"] where line.hasPrefix(marker) { return marker }
        return nil
    }

    private static func isRule(_ line: Substring) -> Bool {
        let characters = line.filter { $0 != " " }
        guard characters.count >= 3, let first = characters.first, "-*_".contains(first) else { return false }
        return characters.allSatisfy { $0 == first }
    }

    /// A list item's marker (`• `, `3. `), its text and the column its content starts at.
    private static func listItem(_ line: String) -> (marker: String, text: String, contentIndent: Int)? {
        let indent = line.prefix { $0 == " " }.count
        guard indent < 4 else { return nil }
        let rest = line.dropFirst(indent)
        if let first = rest.first, "*-+".contains(first), rest.dropFirst().first == " " {
            let text = rest.dropFirst(2).drop { $0 == " " }
            guard !isRule(rest) else { return nil }
            return ("• ", String(text), indent + 2)
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        let after = rest.dropFirst(digits.count)
        guard let delimiter = after.first, delimiter == "." || delimiter == ")", after.dropFirst().first == " " else { return nil }
        let text = after.dropFirst(2).drop { $0 == " " }
        return ("\(Int(digits) ?? 1). ", String(text), indent + digits.count + 2)
    }

    // MARK: Inline

    private mutating func inline(_ text: String) {
        let characters = Array(text)
        var index = 0
        var plain = ""
        func emitPlain(_ layout: inout TextLayout) {
            if !plain.isEmpty { layout.text(HTMLText.decodeEntities(plain)) }
            plain = ""
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count && characters[index + 1].isPunctuation || index + 1 < characters.count && characters[index + 1].isSymbol:
                plain.append(characters[index + 1])
                index += 2
            case "`":
                let run = characters[index...].prefix { $0 == "`" }.count
                if let close = Self.find(Array(repeating: "`", count: run), in: characters, from: index + run) {
                    plain += String(characters[(index + run)..<close])
                    index = close + run
                } else {
                    plain += String(repeating: "`", count: run)
                    index += run
                }
            case "!" where index + 1 < characters.count && characters[index + 1] == "[":
                if let (label, target, end) = Self.link(in: characters, at: index + 1) {
                    emitPlain(&layout)
                    layout.word(label.isEmpty ? "[image]" : "[image: \(label)]")
                    if let source = resolved(target) { images.append(source) }
                    index = end
                } else {
                    plain.append(character)
                    index += 1
                }
            case "[":
                if let (label, target, end) = Self.link(in: characters, at: index) {
                    emitPlain(&layout)
                    inline(label)
                    if let resolvedTarget = resolved(target), label != target {
                        layout.word("[\(number(for: resolvedTarget))]")
                    }
                    index = end
                } else {
                    plain.append(character)
                    index += 1
                }
            case "<":
                if let close = characters[index...].firstIndex(of: ">") {
                    let inside = String(characters[(index + 1)..<close])
                    if inside.hasPrefix("http://") || inside.hasPrefix("https://"), !inside.contains(" ") {
                        plain += inside
                        index = close + 1
                        continue
                    }
                }
                plain.append(character)
                index += 1
            case "*", "_":
                // Emphasis markers go: a run of them touching a word on one side. An
                // underscore inside a word (snake_case) stays.
                let run = characters[index...].prefix { $0 == character }.count
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + run < characters.count ? characters[index + run] : " "
                let insideWord = before.isLetter || before.isNumber
                let opensOrCloses = !after.isWhitespace || !before.isWhitespace
                if run <= 3, opensOrCloses, !(character == "_" && insideWord && (after.isLetter || after.isNumber)),
                   !(before.isWhitespace && after.isWhitespace) {
                    index += run
                } else {
                    plain += String(repeating: character, count: run)
                    index += run
                }
            default:
                plain.append(character)
                index += 1
            }
        }
        emitPlain(&layout)
    }

    /// `[label](target "title")` starting at `start` (its `[`): the label, the target and
    /// the index after the `)`.
    private static func link(in characters: [Character], at start: Int) -> (String, String, Int)? {
        var depth = 0
        var index = start
        var labelEnd: Int?
        while index < characters.count {
            if characters[index] == "[" { depth += 1 }
            if characters[index] == "]" {
                depth -= 1
                if depth == 0 {
                    labelEnd = index
                    break
                }
            }
            index += 1
        }
        guard let labelEnd, labelEnd + 1 < characters.count, characters[labelEnd + 1] == "(" else { return nil }
        guard let close = characters[(labelEnd + 2)...].firstIndex(of: ")") else { return nil }
        var target = WhiteSpace.trimmed(String(characters[(labelEnd + 2)..<close]))
        if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }  // a "title"
        if target.hasPrefix("<"), target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
        return (String(characters[(start + 1)..<labelEnd]), target, close + 1)
    }

    private static func find(_ needle: [Character], in characters: [Character], from start: Int) -> Int? {
        guard needle.count <= characters.count, start <= characters.count - needle.count else { return nil }
        for position in start...(characters.count - needle.count) where Array(characters[position..<(position + needle.count)]) == needle {
            return position
        }
        return nil
    }

    private mutating func number(for target: String) -> Int {
        if let number = linkNumbers[target] { return number }
        links.append(target)
        linkNumbers[target] = links.count
        return links.count
    }

    private func resolved(_ target: String) -> String? {
        let trimmed = WhiteSpace.trimmed(target)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        if let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL, url.scheme != nil { return url.absoluteString }
        return trimmed
    }
}
