import Foundation
import PostFeed
import Testing

@testable import postfeed

/// The list laid out for every window size, down to 1×1: a grid of sizes and frames, each
/// checked against what must hold whatever the size.
///
/// Decided for the smallest windows (issue 16): from 7 rows the full frame (header, rule,
/// posts, rule, hints, status); from 3 to 6 rows a compact one (header, posts, status); at
/// 2 rows the current post and the status line; at 1 row the current post alone (a prompt
/// being typed takes that row, as it takes the status line). So at least one post row is
/// drawn at every height, and the current post (the first entry) always is, whole or its
/// first lines.
@Suite("browse layout: any window size, down to 1×1")
struct BrowseSmallWindowLayoutTests {
    static let heights: [Int] = Array(1...30)
    static let widths = [1, 2, 3, 4, 5, 8, 10, 13, 20, 40, 80, 200]

    /// A frame as `browse` makes it for a screen of `posts` posts.
    static func frame(posts: Int, oneLineEvery: Int = 0, wide: Bool = false, prompt: String? = nil) -> BrowseFrame {
        let entries = (0..<max(1, posts)).map { index -> [String] in
            let title = wide ? "漢字のタイトル\(index + 1)" : "a title that is rather long for a narrow window"
            let first = "\(String(index + 1).leftPadded(to: 4)). \(title)"
            if oneLineEvery > 0, index % oneLineEvery == 0 { return [first] }
            return [first, "      author · 2024-01-0\(index % 9 + 1) · id \(index + 1)"]
        }
        return BrowseFrame(
            header: "PostFeed · infinite · posts 1–\(entries.count) of 20 loaded", entries: entries, highlighted: 0,
            hints: "j/k scroll · space/b screen · ? help · q quit", status: "status: all is well", prompt: prompt,
            activity: "loading posts after #20…", colour: true)
    }

    /// The frames checked at each size: what fits (as the screen asks for), more than fits
    /// (`--rows 25`), entries of one line among two, wide characters, a prompt open.
    static func frames(rows: Int) -> [(name: String, frame: BrowseFrame)] {
        let fit = BrowseLayout.postsThatFit(rows: rows)
        return [
            ("fit", frame(posts: fit)),
            ("--rows 25", frame(posts: 25)),
            ("one-line entries", frame(posts: 25, oneLineEvery: 2)),
            ("wide", frame(posts: fit, wide: true)),
            ("prompt", frame(posts: fit, prompt: "go to post #: 12")),
        ]
    }

    /// `line` without the layout's own escapes (reverse video, colour).
    static func visible(_ line: String) -> String {
        [BrowseLayout.reverseVideo, BrowseLayout.plain, BrowseLayout.headerColour, BrowseLayout.activityColour]
            .reduce(line) { $0.replacingOccurrences(of: $1, with: "") }
    }

    @Test("every size: exactly `rows` lines, none wider than the window, the current post drawn, entries where entryRows says")
    func everySize() {
        var failures: [String] = []
        for rows in Self.heights {
            for columns in Self.widths {
                for (name, frame) in Self.frames(rows: rows) {
                    let context = "\(columns)×\(rows) \(name)"
                    let lines = BrowseLayout.lines(frame, rows: rows, columns: columns)
                    let shown = lines.map(Self.visible)
                    if lines.count != rows { failures.append("\(context): \(lines.count) lines") }
                    if let wide = shown.first(where: { DisplayWidth.of($0) > columns }) {
                        failures.append("\(context): a line wider than the window: \(wide)")
                    }
                    let drawn = BrowseLayout.entriesThatFit(frame.entries, rows: rows)
                    let starts = BrowseLayout.entryRows(frame.entries, rows: rows)
                    if starts.count != drawn { failures.append("\(context): \(starts.count) entry rows for \(drawn) entries drawn") }
                    // At least one post row, the current post's: at every height, but the one
                    // row of a 1-row window is the prompt's while one is typed.
                    let promptOnly = rows == 1 && frame.prompt != nil
                    if !promptOnly, drawn < 1 { failures.append("\(context): no post drawn") }
                    // Each drawn entry's first line where entryRows puts it; the current one
                    // in reverse video.
                    for (index, row) in starts.enumerated() where lines.indices.contains(row - 1) && !promptOnly {
                        let expected = DisplayWidth.cut(frame.entries[index][0], toColumns: columns)
                        if !shown[row - 1].hasPrefix(expected) {
                            failures.append("\(context): row \(row) is '\(shown[row - 1])', not entry \(index)'s '\(expected)'")
                        }
                        if index == frame.highlighted, !lines[row - 1].hasPrefix(BrowseLayout.reverseVideo) {
                            failures.append("\(context): the current post is not highlighted")
                        }
                    }
                    if starts.contains(where: { $0 < 1 || $0 > rows }) { failures.append("\(context): entry rows \(starts) off the window") }
                    // A thumbnail (2 rows) never reaches past the posts' rows.
                    let layout = BrowseRows(rows: rows)
                    for row in BrowseLayout.thumbnailRows(frame.entries, rows: rows, height: 2).compactMap({ $0 })
                    where row < layout.firstPostRow || row + 1 > layout.lastPostRow {
                        failures.append("\(context): a thumbnail at row \(row) outside rows \(layout.firstPostRow)…\(layout.lastPostRow)")
                    }
                    // Entries not drawn leave no line behind.
                    for entry in frame.entries.dropFirst(drawn) where shown.contains(where: { !$0.isEmpty && $0 == entry[0] }) {
                        failures.append("\(context): '\(entry[0])' drawn but not counted")
                    }
                    // The prompt is never hidden.
                    if let prompt = frame.prompt, shown.last != BrowseLayout.promptLine(prompt, columns: columns) {
                        failures.append("\(context): the prompt is not drawn: \(shown)")
                    }
                }
                // What the screen asks for fits: as many posts as are drawn.
                let fit = BrowseLayout.postsThatFit(rows: rows)
                let drawn = BrowseLayout.entriesThatFit(Self.frame(posts: fit).entries, rows: rows)
                if drawn != fit { failures.append("\(columns)×\(rows): postsThatFit \(fit), drawn \(drawn)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n")) (\(failures.count) in all)")
    }

    @Test("a window too short for the rules and hints drops them: posts get the rows", arguments: [3, 4, 5, 6])
    func compact(rows: Int) {
        let frame = Self.frame(posts: 25)
        let lines = BrowseLayout.lines(frame, rows: rows, columns: 40).map(Self.visible)
        let rule = lines.contains { $0.hasPrefix("─") }
        #expect(!rule, "\(lines)")
        let hints = lines.contains { $0.hasPrefix("j/k") }
        #expect(!hints, "\(lines)")
        #expect(lines.first?.hasPrefix("PostFeed") == true, "\(lines)")
        #expect(lines.last == "status: all is well", "\(lines)")
        #expect(lines[1].hasPrefix("   1. a title"), "\(lines)")
        #expect(BrowseLayout.entriesThatFit(frame.entries, rows: rows) == max(1, (rows - 2) / 2))
    }

    @Test("one and two rows: the current post (and the status line), no header claiming posts")
    func oneAndTwoRows() {
        let frame = Self.frame(posts: 25)
        let one = BrowseLayout.lines(frame, rows: 1, columns: 40).map(Self.visible)
        #expect(one == [DisplayWidth.fit("   1. a title that is rather long for a narrow window", toColumns: 40)], "\(one)")
        let two = BrowseLayout.lines(frame, rows: 2, columns: 80).map(Self.visible)
        #expect(two.count == 2 && two[0].hasPrefix("   1. a title") && two[1] == "status: all is well", "\(two)")
        // A prompt takes the one row of a 1-row window.
        let typing = BrowseLayout.lines(Self.frame(posts: 1, prompt: "/sourdough"), rows: 1, columns: 40)
        #expect(typing == ["/sourdough"], "\(typing)")
    }

    @Test("the rows of every height add up to it: at least one post row, the rules and hints only from 7 rows")
    func rowsAddUp() {
        for rows in Self.heights {
            let layout = BrowseRows(rows: rows)
            let parts = [layout.header, layout.rules, layout.rules, layout.hints, layout.status].filter { $0 }.count
            #expect(parts + layout.posts == rows, "\(rows): \(layout)")
            #expect(layout.posts >= 1, "\(rows): \(layout)")
            #expect(layout.rules == (rows >= 7) && layout.hints == (rows >= 7), "\(rows): \(layout)")
            #expect(layout.header == (rows >= 3) && layout.status == (rows >= 2), "\(rows): \(layout)")
            #expect(layout.lastPostRow <= rows - (layout.status ? 1 : 0) - (layout.hints ? 2 : 0), "\(rows): \(layout)")
        }
    }

    @Test("thumbnails only where their two rows are among the posts' rows, and on a window with room beside them")
    func thumbnails() {
        let two = [["a1", "a2"], ["b1", "b2"]]
        // Compact 5 rows: posts on rows 2–4, the first entry's thumbnail on 2–3.
        #expect(BrowseLayout.thumbnailRows(two, rows: 5, height: 2) == [2])
        // 3 rows: one post row, the entry cut to it: no room for a thumbnail.
        #expect(BrowseLayout.thumbnailRows(two, rows: 3, height: 2) == [nil])
        #expect(BrowseLayout.thumbnailRows(two, rows: 7, height: 2) == [3])
        // One-line entries: the last one's thumbnail would cover the status line.
        let ones = [["a"], ["b"], ["c"], ["d"]]
        #expect(BrowseLayout.thumbnailRows(ones, rows: 5, height: 2) == [2, 3, nil])
        #expect(!BrowseScreen.thumbnailsFit(rows: 3, columns: 80))
        #expect(!BrowseScreen.thumbnailsFit(rows: 24, columns: 20))
        #expect(BrowseScreen.thumbnailsFit(rows: 4, columns: 29))
    }
}

/// The help (`?`) laid out and scrolled as the detail view is (issue 16: at 50×12 its last
/// keys were cut off).
@Suite("browse help: scrolls on a short window")
struct BrowseHelpLayoutTests {
    static func help(scroll: Int, rows: Int, columns: Int) -> BrowseDetailLayout.Page {
        BrowseHelp.page(scroll: scroll, rows: rows, columns: columns)
    }

    @Test("a description wrapped on a narrow window goes on under itself, not under the keys; too narrow for that, at the left")
    func wrappedDescriptionsHang() {
        let page = Self.help(scroll: 0, rows: 60, columns: 50)
        let space = page.lines.firstIndex { $0.hasPrefix("  space / b") }
        let index = space ?? 0
        #expect(space != nil, "\(page.lines)")
        // "  space / b  next / previous screen (also Page Down / Page Up)" is 62 columns.
        let next = page.lines[index + 1]
        #expect(next.hasPrefix(String(repeating: " ", count: BrowseHelp.descriptionColumn)), "'\(next)'")
        #expect(!next.hasPrefix(String(repeating: " ", count: BrowseHelp.descriptionColumn + 1)), "'\(next)'")
        let words = (page.lines[index] + " " + next).split(separator: " ")
        #expect(words == "  space / b  next / previous screen (also Page Down / Page Up)".split(separator: " "), "\(page.lines)")
        // At 20 columns an indent of 13 would leave 7: no indent.
        let narrow = Self.help(scroll: 0, rows: 200, columns: 20)
        let indented = narrow.lines.filter { $0.hasPrefix(String(repeating: " ", count: BrowseHelp.descriptionColumn)) }
        let keyLines = BrowseHelp.lines.filter { $0.hasPrefix(String(repeating: " ", count: BrowseHelp.descriptionColumn)) }
        #expect(indented.count <= keyLines.count, "\(indented)")
    }

    @Test("50×12: the top says more below; scrolled to the end, the last key and 'end'")
    func scrollsToTheLastKey() {
        let top = Self.help(scroll: 0, rows: 12, columns: 50)
        #expect(top.lines.first == "PostFeed · keys")
        #expect(top.lines.last?.contains("more below") == true, "\(top.lines)")
        // The closing line is cut at 50 columns, "more below" first; whole on a wider window.
        let wide = Self.help(scroll: 0, rows: 12, columns: 100)
        #expect(wide.lines.last?.hasSuffix("j/k/space/b scroll, any other key closes the help") == true, "\(wide.lines)")
        let showsLast = top.lines.contains { $0.hasPrefix("  Ctrl-Z") }
        #expect(!showsLast)
        let end = Self.help(scroll: top.maxScroll, rows: 12, columns: 50)
        let endShowsLast = end.lines.contains { $0.hasPrefix("  Ctrl-Z") }
        #expect(endShowsLast, "\(end.lines)")
        #expect(end.lines.last?.contains(", end") == true, "\(end.lines)")
        // A window tall enough: everything, and any key closes.
        let tall = Self.help(scroll: 0, rows: 40, columns: 100)
        #expect(tall.maxScroll == 0 && tall.lines.last == "(any key closes the help)", "\(tall.lines)")
    }

    @Test("every size: exactly `rows` lines, none wider than the window, the closing line last, every key reachable")
    func everySize() {
        var failures: [String] = []
        for rows in BrowseSmallWindowLayoutTests.heights {
            for columns in BrowseSmallWindowLayoutTests.widths {
                var seen: [String] = []
                var scroll = 0
                // Scrolled a screen at a time, as space does, to the end (on a window of 10
                // columns or more: narrower, the top and the end alone, a walk there is long).
                while true {
                    let page = Self.help(scroll: scroll, rows: rows, columns: columns)
                    if page.lines.count != rows { failures.append("\(columns)×\(rows): \(page.lines.count) lines") }
                    if let wide = page.lines.first(where: { DisplayWidth.of($0) > columns }) {
                        failures.append("\(columns)×\(rows): wider than the window: \(wide)")
                    }
                    seen += page.lines.dropLast()
                    let delta = BrowseDetailLayout.scrollDelta(for: .character(" "), rows: rows) ?? 0
                    let next = BrowseDetailLayout.scrolled(page.scroll, by: delta, maxScroll: page.maxScroll, imageRows: 0)
                    if next == page.scroll { break }
                    scroll = columns >= 10 ? next : page.maxScroll
                }
                // Every key's line is reached whole when the window is wide enough not to break it.
                if rows >= 2, columns >= 100 {
                    for line in BrowseHelp.lines where !line.isEmpty && !seen.contains(line) {
                        failures.append("\(columns)×\(rows): never shows '\(line)'")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n")) (\(failures.count) in all)")
    }

    @Test("the detail view's scroll keys scroll the help; any other key leaves it")
    func scrollKeys() {
        #expect(BrowseDetailLayout.scrollDelta(for: .character("j"), rows: 12) == 1)
        #expect(BrowseDetailLayout.scrollDelta(for: .up, rows: 12) == -1)
        #expect(BrowseDetailLayout.scrollDelta(for: .character(" "), rows: 12) == 10)
        #expect(BrowseDetailLayout.scrollDelta(for: .pageUp, rows: 12) == -10)
        #expect(BrowseDetailLayout.scrollDelta(for: .character("?"), rows: 12) == nil)
        #expect(BrowseDetailLayout.scrollDelta(for: .escape, rows: 12) == nil)
        #expect(BrowseDetailLayout.scrollDelta(for: .character("q"), rows: 12) == nil)
    }

    @Test("wrapping keeps a line's own indent; a line broken goes on without one")
    func wrapKeepsIndent() {
        #expect(BrowseLayout.wrap("  j / ↓      next post", toColumns: 40) == ["  j / ↓      next post"])
        #expect(BrowseLayout.wrap("  aaa bbb", toColumns: 6) == ["  aaa", "bbb"])
        #expect(BrowseLayout.wrap("a b", toColumns: 40) == ["a b"])
    }
}
