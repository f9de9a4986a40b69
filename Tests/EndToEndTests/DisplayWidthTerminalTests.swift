import Foundation
import PostFeedServer
import Testing

@testable import postfeed

/// Issue 29, item 7: the CLI's one width function (``DisplayWidth``) agrees with what a
/// real terminal draws. Each string of a table is printed into a tmux pane and the cursor
/// column after it is compared with the function's answer; `list` on a terminal cuts
/// titles of such text to the window, none wrapping.
@Suite("display widths against tmux", .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct DisplayWidthTerminalTests {
    /// Strings a terminal draws wider or narrower than a count of characters says. (`❤️`
    /// is left out on purpose: see ``DisplayWidth``.)
    static let table: [String] = [
        "abc", "a\u{AD}b", "a\u{600}b", "\u{600}\u{661}", "हिन्दी", "ำ", "กำ", "ไทย", "漢字", "한국어", "\u{1100}\u{1161}",
        "🇯🇵", "🇯🇵🇫🇷", "👍", "👍🏽", "👨‍👩‍👧", "e\u{301}", "a\u{200B}b", "a\u{200D}b", "a\u{200F}b", "ｶﾀｶﾅ", "ＡＢ",
        "café ☕ 東京", "Ünïcödé", "ab\u{20DD}",
    ]

    /// The octal escapes `printf` turns back into `text`'s UTF-8 bytes (the shell's own
    /// input handling never sees the text).
    private static func octal(_ text: String) -> String {
        text.utf8.map { "\\" + String($0, radix: 8) }.joined()
    }

    /// Whether the pane shows the marker `#<index>` on its first row (the string printed).
    private static func shows(_ index: Int, _ lines: [String]) -> Bool { lines.first == "#\(index)" }

    @Test("the cursor stands where DisplayWidth says after each string of the table")
    func cursorColumns() async throws {
        let sandbox = try Sandbox()
        let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 10)
        var mismatches: [String] = []
        for (index, text) in Self.table.enumerated() {
            // The screen cleared, a marker row, then the string alone on row 2; `read`
            // holds the cursor right after it.
            try pane.type("printf '\\033[H\\033[2J#\(index)\\n\(Self.octal(text))'; read x", enter: true)
            try await pane.requireScreen { Self.shows(index, $0) }
            let reported = try pane.tmux(["display-message", "-p", "-t", "t", "#{cursor_x} #{cursor_y}"])
            let position = reported.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let expected = DisplayWidth.of(text)
            if position != [expected, 1] {
                let scalars = text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
                mismatches.append("\(text) [\(scalars)]: tmux \(position), DisplayWidth \(expected)")
            }
            try pane.press("Enter")
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Whether `list`'s output has ended (the shell's marker after it).
    private static func listEnded(_ lines: [String]) -> Bool { lines.contains("LIST-DONE") }

    @Test("list on an 80-column terminal cuts CJK, emoji, flag and Hangul titles to the window: none wraps")
    func listCutsTitlesByColumns() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let titles = ["漢字のタイトルがとても長くて端末の幅を超えてしまう場合の表示について考える、もう一度考える",
                      "🎉🎉🎉 emoji 🎉🎉🎉 party 🎉🎉🎉 time 🎉🎉🎉 again 🎉🎉🎉 and again 🎉🎉🎉 and more 🎉🎉🎉",
                      "🇯🇵🇫🇷🇩🇪🇮🇹🇪🇸🇬🇧🇺🇸🇨🇦🇧🇷🇦🇷🇲🇽🇰🇷🇨🇳🇮🇳🇦🇺🇳🇿🇿🇦🇪🇬🇳🇬🇰🇪🇸🇪🇳🇴🇫🇮🇩🇰🇵🇱🇨🇿🇦🇹🇨🇭🇧🇪🇳🇱🇯🇵🇫🇷🇩🇪🇮🇹🇪🇸🇬🇧🇺🇸🇨🇦",
                      "한국어 제목이 아주 길어서 터미널의 너비를 넘어가는 경우에 어떻게 보이는지 확인합니다 정말로"]
        try fixtures.rewriteTitles { id, title in id <= 8 ? titles[(id - 1) % titles.count] : title }
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 60)
            let binary = try PostfeedProcess.executable().path
            try pane.type(
                "\(binary) list --no-images --page-size 8 --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path); echo LIST-DONE",
                enter: true)
            let screen = try await pane.requireScreen(Self.listEnded)

            // Each entry is its number and title on one row, then its meta line indented
            // 6 columns: a title that wrapped would push a row between them.
            let entryRows = screen.indices.filter { screen[$0].range(of: #"^\s*\d+\. "#, options: .regularExpression) != nil }
            #expect(entryRows.count == 8, "\(screen.joined(separator: "\n"))")
            for row in entryRows {
                let next = row + 1 < screen.count ? screen[row + 1] : ""
                #expect(next.hasPrefix("      "), "row \(row) wrapped:\n\(screen.joined(separator: "\n"))")
                #expect(DisplayWidth.of(screen[row]) <= 80, "\(screen[row])")
            }
            let cut = entryRows.filter { screen[$0].hasSuffix("…") }
            #expect(cut.count == 8, "every long title is cut with …:\n\(screen.joined(separator: "\n"))")
        }
    }
}
