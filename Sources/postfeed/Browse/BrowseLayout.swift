/// What one `browse` frame shows, before it is laid out for a terminal size.
struct BrowseFrame: Equatable {
    var header: String
    /// The lines of each post on screen, top first.
    var entries: [[String]]
    /// The entry drawn in reverse video (the current post), on a terminal only.
    var highlighted: Int?
    var hints: String
    var status: String
    /// A prompt being typed ("go to post #: 25"); on a terminal it takes the status line.
    var prompt: String?
}

/// Drawing as a pure function from (frame, size) to lines, so layout is testable without a
/// terminal.
enum BrowseLayout {
    static let reverseVideo = "\u{1B}[7m"
    static let plain = "\u{1B}[0m"

    /// Fixed lines around the posts: header, rule, rule, hints, status.
    static let fixedLines = 5

    /// Posts that fit on a screen of `rows` rows, `linesPerPost` lines each.
    static func postsThatFit(rows: Int, linesPerPost: Int = 2) -> Int {
        max(1, (rows - fixedLines) / max(1, linesPerPost))
    }

    /// The frame's lines for a terminal of `rows` × `columns`: exactly `rows` lines (fewer
    /// only when the frame is smaller than a 5-row screen), none wider than `columns`, the
    /// header first and the status line last whatever their length.
    static func lines(_ frame: BrowseFrame, rows: Int, columns: Int) -> [String] {
        let rows = max(1, rows)
        let columns = max(1, columns)
        let rule = String(repeating: "─", count: columns)
        let bottom = frame.prompt ?? frame.status
        guard rows >= fixedLines else {
            return Array([frame.header, bottom].prefix(rows)).map { DisplayWidth.cut($0, toColumns: columns) }
        }
        var body: [String] = []
        let area = rows - fixedLines
        for (index, entry) in frame.entries.enumerated() {
            guard body.count + entry.count <= area else { break }
            for line in entry {
                let cut = DisplayWidth.cut(line, toColumns: columns)
                body.append(index == frame.highlighted ? reverseVideo + DisplayWidth.fit(cut, toColumns: columns) + plain : cut)
            }
        }
        body += Array(repeating: "", count: area - body.count)
        return [DisplayWidth.cut(frame.header, toColumns: columns), rule] + body
            + [rule, DisplayWidth.cut(frame.hints, toColumns: columns), DisplayWidth.cut(bottom, toColumns: columns)]
    }

    /// The frame piped (keys from a pipe, output to a file): every line whole, no escapes,
    /// the rules 80 wide, the status and the prompt each on a line of their own.
    static func pipedLines(_ frame: BrowseFrame) -> [String] {
        let rule = String(repeating: "─", count: 80)
        var lines = [frame.header, rule] + frame.entries.flatMap { $0 } + [rule, frame.hints]
        if !frame.status.isEmpty { lines.append(frame.status) }
        if let prompt = frame.prompt { lines.append(prompt) }
        return lines
    }

    /// A text overlay (a post in full, the help) on a terminal: cut to the screen, the
    /// closing hint always on the last line.
    static func overlayLines(_ text: [String], closing: String, rows: Int, columns: Int) -> [String] {
        let room = max(0, rows - 1)
        var lines = Array(text.prefix(room))
        lines += Array(repeating: "", count: room - lines.count)
        return (lines + [closing]).map { DisplayWidth.cut($0, toColumns: max(1, columns)) }
    }
}
