import Foundation
import PostFeed
import Testing

@testable import postfeed

@Suite("browse layout: widths in terminal columns, frames for any size")
struct BrowseLayoutTests {
    @Test(
        "displayWidth counts terminal columns",
        arguments: [
            ("abc", 3), ("", 0), ("漢字", 4), ("한국어", 6), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4),
            ("e\u{301}", 1), ("\u{301}", 0), ("😀", 2), ("👍🏽", 4), ("👩‍👩‍👧", 2), ("❤️", 2), ("a\u{7}b", 2),
            ("café ☕ 東京", 12),
        ])
    func displayWidth(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("cut keeps whole characters and ends with … within the columns")
    func cut() {
        #expect(DisplayWidth.cut("hello", toColumns: 10) == "hello")
        #expect(DisplayWidth.cut("hello world", toColumns: 6) == "hello…")
        // a wide character that would straddle the edge is left out whole
        #expect(DisplayWidth.cut("ab漢字", toColumns: 4) == "ab…")
        #expect(DisplayWidth.of(DisplayWidth.cut("漢字漢字漢字", toColumns: 7)) <= 7)
        #expect(DisplayWidth.cut("e\u{301}e\u{301}e\u{301}", toColumns: 3) == "e\u{301}e\u{301}e\u{301}")
        #expect(DisplayWidth.fit("漢", toColumns: 4) == "漢  ")
    }

    private func frame(posts: Int, status: String = "") -> BrowseFrame {
        BrowseFrame(
            header: "PostFeed · infinite · posts 1–\(posts)",
            entries: (1...posts).map { ["  \($0). a title that is rather long for a narrow window", "      author · id \($0)"] },
            highlighted: 0, hints: "j/k scroll · q quit", status: status, prompt: nil)
    }

    @Test("a frame fills the screen exactly: header first, status last, rules as wide as the terminal")
    func fillsScreen() {
        // From 7 rows, the full frame (BrowseSmallWindowLayoutTests covers the smaller ones).
        for (rows, columns) in [(24, 80), (30, 100), (50, 200), (7, 20)] {
            // Given: as many posts as the layout says fit
            let fit = BrowseLayout.postsThatFit(rows: rows)
            let lines = BrowseLayout.lines(frame(posts: fit, status: "done"), rows: rows, columns: columns)

            // Then
            #expect(lines.count == rows)
            #expect(lines.first?.hasPrefix("PostFeed") == true)
            #expect(lines[1] == String(repeating: "─", count: columns))
            #expect(lines.last == "done")
            let blank = lines.filter(\.isEmpty).count
            #expect(blank <= 1, "at most one row left over at \(rows)×\(columns): \(lines)")
            let fits = lines.allSatisfy { DisplayWidth.of($0.replacingOccurrences(of: "\u{1B}[7m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")) <= columns }
            #expect(fits, "a line wider than \(columns) columns: \(lines)")
        }
    }

    @Test("a long status is cut to one line; the header stays first")
    func longStatus() {
        let status = String(repeating: "the server said something long and unhelpful; ", count: 10) + "\nsecond line"
        let lines = BrowseLayout.lines(frame(posts: 9, status: status), rows: 24, columns: 80)
        #expect(lines.count == 24)
        #expect(lines.first?.hasPrefix("PostFeed") == true)
        #expect(DisplayWidth.of(lines[23]) <= 80)
        #expect(lines[23].hasSuffix("… [l]"), "the cut marker names the key that shows it whole")
        #expect(!lines[23].contains("second line"))
    }

    @Test("a status that fits is shown as it is, on one line")
    func shortStatus() {
        let lines = BrowseLayout.lines(frame(posts: 3, status: "refreshed\nfrom the network"), rows: 24, columns: 80)
        #expect(lines[23] == "refreshed from the network")
    }

    @Test("the loading indicator sits at the right of the header, the header cut before it")
    func activityInHeader() {
        var frame = frame(posts: 3)
        frame.header = "PostFeed · infinite · posts 1–3 of 20 loaded (247 in all)"
        frame.activity = "loading posts after #20…"
        let lines = BrowseLayout.lines(frame, rows: 24, columns: 60)
        #expect(lines[0].hasPrefix("PostFeed · infinite"))
        #expect(lines[0].hasSuffix("loading posts after #20…"), "\(lines[0])")
        #expect(DisplayWidth.of(lines[0]) == 60)
    }

    @Test("colour only when the frame asks for it: the header painted, the highlight reverse video either way")
    func colour() {
        var frame = frame(posts: 3)
        let plain = BrowseLayout.lines(frame, rows: 24, columns: 40)
        #expect(!plain[0].contains("\u{1B}"))
        frame.colour = true
        let painted = BrowseLayout.lines(frame, rows: 24, columns: 40)
        #expect(painted[0].hasPrefix(BrowseLayout.headerColour))
        #expect(painted[2].hasPrefix(BrowseLayout.reverseVideo))
    }

    @Test("a message wraps to the width in the l overlay, and scrolls to its end on a short window")
    func wrappedMessage() {
        let text = (1...40).map { "word\($0)" }.joined(separator: " ")
        let first = BrowseDetailLayout.page(above: [], text: [text], note: nil, scroll: 0, rows: 6, columns: 30, leave: "closes this")
        #expect(first.lines.count == 6)
        let fits = first.lines.allSatisfy { DisplayWidth.of($0) <= 30 }
        #expect(fits, "a line wider than 30 columns: \(first.lines)")
        #expect(first.maxScroll > 0, "\(first.lines)")
        #expect(first.lines.last?.contains("more below") == true, "\(first.lines)")
        let last = BrowseDetailLayout.page(
            above: [], text: [text], note: nil, scroll: first.maxScroll, rows: 6, columns: 30, leave: "closes this")
        let shown = last.lines.dropLast().joined(separator: " ")
        #expect(shown.contains("word40"), "\(last.lines)")
    }

    @Test("s and u: most popular first across the loaded posts, ties in feed order; unseen hides earlier runs' posts but not this run's")
    func order() {
        let ids: [PostID] = [10, 11, 12, 13]
        let popularity: [PostID: Double] = [10: 0.2, 11: 0.9, 12: 0.5, 13: 0.9]
        #expect(BrowseOrder.make(ids: ids, popularity: popularity, byPopularity: false, unseenOnly: false, hidden: [], kept: []) == nil)
        #expect(BrowseOrder.make(ids: ids, popularity: popularity, byPopularity: true, unseenOnly: false, hidden: [], kept: []) == [1, 3, 2, 0])
        let unseen = BrowseOrder.make(ids: ids, popularity: popularity, byPopularity: false, unseenOnly: true, hidden: [10, 11, 12], kept: [11])
        #expect(unseen == [1, 3])
        #expect(BrowseOrder.position(ofFeedIndex: 2, in: unseen) == 1, "a hidden post's place goes to the next shown")
        #expect(BrowseOrder.position(ofFeedIndex: 2, in: nil) == 2)
    }

    @Test("the current post is in reverse video across the width; the others plain")
    func highlight() {
        let lines = BrowseLayout.lines(frame(posts: 3), rows: 24, columns: 40)
        #expect(lines[2].hasPrefix("\u{1B}[7m") && lines[2].hasSuffix("\u{1B}[0m"))
        #expect(lines[3].hasPrefix("\u{1B}[7m"))
        #expect(!lines[4].contains("\u{1B}"))
    }

    @Test("a 2-row screen shows the current post and the status line, no header")
    func tinyScreen() {
        let lines = BrowseLayout.lines(frame(posts: 3, status: "s"), rows: 2, columns: 10)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("\u{1B}[7m  1. a") == true, "\(lines)")
        #expect(lines.last == "s")
    }

    @Test("entry rows are where the frame's lines put each shown entry's first line (the thumbnails' rows)")
    func entryRowsMatchTheLines() {
        // Entries of 2, 3 and 1 lines, then one of 4 that does not fit in the 10 - 5 rows left.
        let entries = [["a1", "a2"], ["b1", "b2", "b3"], ["c1"], ["d1", "d2", "d3", "d4"]]
        let frame = BrowseFrame(header: "H", entries: entries, highlighted: nil, hints: "h", status: "s")
        let rows = 10
        let lines = BrowseLayout.lines(frame, rows: rows, columns: 20)

        let starts = BrowseLayout.entryRows(entries, rows: rows)

        #expect(starts == [3, 5], "\(starts)")
        #expect(BrowseLayout.entriesThatFit(entries, rows: rows) == 2)
        let drawn = starts.map { lines[$0 - 1] }
        #expect(drawn == ["a1", "b1"], "\(lines)")
        #expect(!lines.contains("c1"), "an entry after one that does not fit is not shown: \(lines)")
        // A taller screen shows all four, each where its row says.
        let tall = BrowseLayout.lines(frame, rows: 15, columns: 20)
        let tallStarts = BrowseLayout.entryRows(entries, rows: 15)
        #expect(tallStarts == [3, 5, 8, 9])
        let tallFirstLines = tallStarts.map { tall[$0 - 1] }
        #expect(tallFirstLines == ["a1", "b1", "c1", "d1"])
        // A compact 4-row screen (header, 2 post rows, status): the first entry under the header.
        #expect(BrowseLayout.entryRows(entries, rows: 4) == [2])
        #expect(BrowseLayout.lines(frame, rows: 4, columns: 20) == ["H", "a1", "a2", "s"])
    }
}

@Suite("browse layout: text from a server never drives the terminal")
struct BrowseLayoutCleaningTests {
    @Test("controls in a frame's lines are dropped before widths are counted; the highlight's own escapes stay")
    func framesAreCleaned() {
        let frame = BrowseFrame(
            header: "PostFeed", entries: [["   1. a\u{1B}]2;PWNED\u{07}b\tc\u{1B}[31md"]], highlighted: nil,
            hints: "q quit", status: "server said \u{1B}[2Jno\nthanks", prompt: nil)
        let lines = BrowseLayout.lines(frame, rows: 7, columns: 12)
        #expect(lines[2] == DisplayWidth.cut("   1. ab cd", toColumns: 12))
        #expect(lines[6].hasPrefix("server "))
        let escapes = lines.contains { $0.contains("\u{1B}") }
        #expect(!escapes, "\(lines)")
        let piped = BrowseLayout.pipedLines(frame)
        let pipedEscapes = piped.contains { $0.contains("\u{1B}") || $0.contains("\t") || $0.contains("\n") }
        #expect(!pipedEscapes, "\(piped)")
    }
}

@Suite("browse layout: prompts")
struct BrowsePromptLayoutTests {
    @Test("a prompt wider than the screen shows its end, where the reader types")
    func longPromptShowsItsEnd() {
        let frame = BrowseFrame(
            header: "PostFeed", entries: [], highlighted: nil, hints: "q quit", status: "",
            prompt: "/" + String(repeating: "abc", count: 20) + "END")
        let lines = BrowseLayout.lines(frame, rows: 6, columns: 20)
        #expect(lines.last?.hasSuffix("END") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("…") == true, "\(lines)")
        #expect(DisplayWidth.of(lines.last ?? "") == 20, "\(lines)")
    }
}
