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
    /// What is loading ("loading posts after #20…"), drawn at the right of the header;
    /// `nil` when nothing is.
    var activity: String? = nil
    /// Colour for the header and the activity (a terminal, and no `NO_COLOR`). Reverse
    /// video, the highlight, needs none.
    var colour: Bool = false
}

extension BrowseFrame {
    /// Every line on one line, without a control character: the one place text from outside
    /// (titles, authors, a server's error in a message) is made safe before widths are
    /// counted and the layout adds its own escapes (reverse video, colour).
    var cleaned: BrowseFrame {
        var frame = self
        frame.header = header.terminalLine
        frame.entries = entries.map { $0.map(\.terminalLine) }
        frame.hints = hints.terminalLine
        frame.status = status.terminalLine
        frame.prompt = prompt?.terminalLine
        frame.activity = activity?.terminalLine
        return frame
    }
}

/// Drawing as a pure function from (frame, size) to lines, so layout is testable without a
/// terminal.
enum BrowseLayout {
    static let reverseVideo = "\u{1B}[7m"
    static let plain = "\u{1B}[0m"
    /// Bold cyan, the header's colour.
    static let headerColour = "\u{1B}[1;36m"
    /// Yellow, the loading indicator's colour.
    static let activityColour = "\u{1B}[33m"
    /// Ends a status line cut to the width: `l` shows the whole text.
    static let cutMarker = " [l]"

    /// Posts that fit on a screen of `rows` rows, `linesPerPost` lines each: at least 1 (the
    /// current post, its first lines when the window is shorter than it).
    static func postsThatFit(rows: Int, linesPerPost: Int = 2) -> Int {
        max(1, BrowseRows(rows: rows).posts / max(1, linesPerPost))
    }

    /// The frame's lines for a terminal of `rows` × `columns`: exactly `rows` lines (at least
    /// 1), none wider than `columns`, the rows ``BrowseRows`` says this height has. The
    /// header, when there is one, comes first, and the status line (or the prompt) last,
    /// whatever their length; on a 1-row window a prompt takes the post's row.
    static func lines(_ frame: BrowseFrame, rows: Int, columns: Int) -> [String] {
        let frame = frame.cleaned
        let layout = BrowseRows(rows: rows)
        let columns = max(1, columns)
        let rule = String(repeating: "─", count: columns)
        let bottom = frame.prompt.map { promptLine($0, columns: columns) } ?? statusLine(frame.status, columns: columns)
        var body: [String] = []
        for (index, entry) in frame.entries.prefix(entriesThatFit(frame.entries, rows: rows)).enumerated() {
            for line in entry {
                let cut = DisplayWidth.cut(line, toColumns: columns)
                body.append(index == frame.highlighted ? reverseVideo + DisplayWidth.fit(cut, toColumns: columns) + plain : cut)
            }
        }
        // The current post cut to its first lines when the window is shorter than it.
        body = Array(body.prefix(layout.posts))
        body += Array(repeating: "", count: layout.posts - body.count)
        if !layout.status, frame.prompt != nil { body[body.count - 1] = bottom }
        var lines: [String] = []
        if layout.header { lines.append(headerLine(frame, columns: columns)) }
        if layout.rules { lines.append(rule) }
        lines += body
        if layout.rules { lines.append(rule) }
        if layout.hints { lines.append(DisplayWidth.cut(frame.hints, toColumns: columns)) }
        if layout.status { lines.append(bottom) }
        return lines
    }

    /// How many of `entries`, from the first, ``lines(_:rows:columns:)`` shows on a screen of
    /// `rows` rows: those that fit whole, and at least the first (the current post), cut to
    /// its first lines when the window is shorter than it. What the header may claim.
    static func entriesThatFit(_ entries: [[String]], rows: Int) -> Int {
        let area = BrowseRows(rows: rows).posts
        var used = 0
        for (index, entry) in entries.enumerated() {
            guard used + entry.count <= area else { return max(index, min(1, entries.count)) }
            used += entry.count
        }
        return entries.count
    }

    /// The screen row (1-based) of each shown entry's first line, as ``lines(_:rows:columns:)``
    /// places them on a screen of `rows` rows.
    static func entryRows(_ entries: [[String]], rows: Int) -> [Int] {
        var row = BrowseRows(rows: rows).firstPostRow
        return entries.prefix(entriesThatFit(entries, rows: rows)).map { entry in
            defer { row += entry.count }
            return row
        }
    }

    /// Where `browse` draws each shown entry's thumbnail, `height` rows high: the entry's first
    /// row, or `nil` when the thumbnail would reach past the posts' rows (over the next rule,
    /// the status line or off the window).
    static func thumbnailRows(_ entries: [[String]], rows: Int, height: Int) -> [Int?] {
        let last = BrowseRows(rows: rows).lastPostRow
        return entryRows(entries, rows: rows).map { $0 + max(1, height) - 1 <= last ? $0 : nil }
    }

    /// The header cut to the width, with the activity (when something loads) at its right;
    /// on a screen too narrow for both, the activity wins after the first 12 columns.
    static func headerLine(_ frame: BrowseFrame, columns: Int) -> String {
        guard let activity = frame.activity, !activity.isEmpty else {
            return paint(DisplayWidth.cut(frame.header, toColumns: columns), headerColour, frame.colour)
        }
        let right = DisplayWidth.cut(activity, toColumns: max(1, columns - 14))
        let room = columns - DisplayWidth.of(right) - 2
        guard room >= 12 else { return paint(DisplayWidth.cut(frame.header, toColumns: columns), headerColour, frame.colour) }
        let left = DisplayWidth.fit(frame.header, toColumns: room)
        return paint(left, headerColour, frame.colour) + "  " + paint(right, activityColour, frame.colour)
    }

    /// The status on one line: line breaks become spaces; text wider than the screen is cut
    /// and ends with ``cutMarker`` (`l` shows it whole).
    static func statusLine(_ status: String, columns: Int) -> String {
        let text = oneLine(status)
        guard DisplayWidth.of(text) > columns else { return text }
        let marker = DisplayWidth.of(cutMarker)
        guard columns > marker + 4 else { return DisplayWidth.cut(text, toColumns: columns) }
        return DisplayWidth.cut(text, toColumns: columns - marker) + cutMarker
    }

    /// A prompt on one line: when wider than the screen, its end (where the reader types),
    /// after "…".
    static func promptLine(_ prompt: String, columns: Int) -> String {
        guard DisplayWidth.of(prompt) > columns else { return prompt }
        guard columns > 1 else { return DisplayWidth.cut(prompt, toColumns: columns) }
        var tail = ""
        var used = 0
        for character in prompt.reversed() {
            let width = DisplayWidth.of(character)
            if used + width > columns - 1 { break }
            tail.insert(character, at: tail.startIndex)
            used += width
        }
        return "…" + tail
    }

    /// `text` with its line breaks as spaces.
    static func oneLine(_ text: String) -> String {
        text.terminalLine
    }

    private static func paint(_ text: String, _ colour: String, _ enabled: Bool) -> String {
        enabled ? colour + text + plain : text
    }

    /// The frame piped (keys from a pipe, output to a file): every line whole, no escapes,
    /// the rules as wide as `columns` (the terminal on stdout, else `COLUMNS`, else 80), the
    /// status and the prompt each on a line of their own.
    static func pipedLines(_ frame: BrowseFrame, columns: Int = Terminal.width) -> [String] {
        let frame = frame.cleaned
        let rule = String(repeating: "─", count: max(1, columns))
        let header = frame.activity.map { frame.header + " · " + $0 } ?? frame.header
        var lines = [header, rule] + frame.entries.flatMap { $0 } + [rule, frame.hints]
        if !frame.status.isEmpty { lines.append(frame.status) }
        if let prompt = frame.prompt { lines.append(prompt) }
        return lines
    }

    /// `text` broken into lines of at most `columns` terminal columns, at spaces and between
    /// wide characters when it can, a longer word across lines; its own leading spaces (an
    /// indent) kept (``TextWrap``).
    static func wrap(_ text: String, toColumns columns: Int, hangingIndent: Int = 0) -> [String] {
        TextWrap.lines(text[...], columns: columns, hangingIndent: hangingIndent)
    }
}
