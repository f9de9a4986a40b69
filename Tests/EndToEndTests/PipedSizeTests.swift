import Foundation
import PostFeedServer
import Testing

@testable import postfeed

/// Issue 17: piped, `show`'s preview was always 80 × 24 (the box 80 × 12), whatever
/// COLUMNS and LINES said. Now valid positive values size piped output (capped); anything
/// else is ignored and the 80 × 24 default stays.
@Suite("postfeed show piped: COLUMNS and LINES size the preview")
struct PipedSizeTests {
    /// `text` without its escape sequences (CSI colour codes): what a terminal shows.
    static func visible(_ text: String) -> String {
        text.replacing(/\x1B\[[0-9;:?]*[ -\/]*[@-~]/, with: "")
    }

    /// The lines `show 42 --images symbols` printed above the post's title.
    static func previewLines(_ run: PostfeedResult) -> [String] {
        ShowImageTests.preview(run).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty }
    }

    /// Piped text is data: `list` and `page` cut titles to the width only on a terminal
    /// (they were cut at 80, then at COLUMNS: "What city gardens t…").
    @Test("piped list and page print every title whole, whatever COLUMNS says")
    func pipedTitlesAreWhole() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let postsFile = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: postsFile)) as? [[String: Any]])
        posts[10]["title"] = "A title longer than any terminal line: " + String(repeating: "and it goes on ", count: 8) + "to its end"
        try JSONSerialization.data(withJSONObject: posts).write(to: postsFile)
        let titles = posts.prefix(20).compactMap { ($0["title"] as? String)?.terminalLine }
        try #require(titles.count == 20)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            for (arguments, columns) in [(["page", "1"], "20"), (["page", "1"], ""), (["list", "--restart"], "20")] {
                let environment = columns.isEmpty ? [:] : ["COLUMNS": columns]
                let run = try await sandbox.run(arguments + ["--no-images"], against: server, environment: environment)
                #expect(run.succeeded, "\(arguments): \(run)")
                for title in titles {
                    #expect(run.standardOutput.contains(". \(title)\n"), "\(arguments) COLUMNS=\(columns): '\(title)' not whole")
                }
            }
        }
    }

    /// README: piped, "the text wraps at the same width": the body did, the title and the
    /// meta line did not (89 and 54 columns at COLUMNS=30).
    @Test("piped show at COLUMNS=30: the title and the meta line wrap at 30 too, every word kept")
    func titleAndMetaWrap() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let postsFile = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: postsFile)) as? [[String: Any]])
        let title = "A title longer than thirty columns, in several words of its own"
        posts[10]["title"] = title
        try JSONSerialization.data(withJSONObject: posts).write(to: postsFile)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["show", "11", "--images", "none"], against: server, environment: ["COLUMNS": "30"])
            try #require(run.succeeded, "\(run)")
            let lines = run.standardOutput.components(separatedBy: "\n")
            let text = Array(lines.prefix { !$0.hasPrefix("image:") })
            let wide = text.filter { $0.count > 30 }
            #expect(wide.isEmpty, "\(run.standardOutput)")
            #expect(text.first?.hasPrefix("#11  A title") == true, "\(run.standardOutput)")
            let words = text.joined(separator: " ").split(separator: " ")
            let titleKept = title.split(separator: " ").allSatisfy { words.contains($0) }
            #expect(titleKept, "\(run.standardOutput)")
        }
    }

    /// show counted characters, not columns: a Japanese title and body (2 columns a
    /// character, no spaces) came out at up to twice the width, one line per paragraph.
    /// Now lines break between wide characters (as UAX #14 allows) and every line fits;
    /// a Latin word longer than a line (a URL) is still kept whole, to copy.
    @Test("piped show at COLUMNS=30: CJK titles and bodies wrap at 30 columns, every character kept; a long URL stays whole")
    func wideTextWrapsByColumns() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let postsFile = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: postsFile)) as? [[String: Any]])
        let title = "東京の庭園で学んだサワードウの話とその続き"
        let url = "https://example.com/a/path/far/longer/than/thirty/columns"
        let body = "庭園の土は毎年少しずつ変わります。pH 6.5 の土で、ライ麦の種を蒔きました。\n詳しくは \(url) を見てください。"
        posts[10]["title"] = title
        posts[10]["body"] = body
        try JSONSerialization.data(withJSONObject: posts).write(to: postsFile)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["show", "11", "--images", "none"], against: server, environment: ["COLUMNS": "30"])
            try #require(run.succeeded, "\(run)")
            let lines = run.standardOutput.components(separatedBy: "\n").prefix { !$0.hasPrefix("image") }
            let tooWide = lines.filter { DisplayWidth.of($0) > 30 && !$0.contains(url) }
            #expect(tooWide.isEmpty, "\(run.standardOutput)")

            let urlWhole = lines.contains { $0.trimmingCharacters(in: .whitespaces) == url }
            #expect(urlWhole, "the URL is not whole on a line: \(run.standardOutput)")
            // Every character of the title and the body, in order (spaces and breaks aside).
            let printed = lines.joined().filter { $0 != " " }
            #expect(printed.hasPrefix("#11" + title), "\(run.standardOutput)")
            let bodyCharacters = body.filter { $0 != " " && $0 != "\n" }
            #expect(printed.contains(bodyCharacters), "\(run.standardOutput)")
        }
    }

    @Test("COLUMNS=40 draws 40 columns, COLUMNS=100 draws 100; LINES bounds the height; the text wraps at COLUMNS")
    func columnsAndLinesSizeThePreview() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let arguments = ["show", "42", "--images", "symbols"]
            // Post 42's image is square: with 200 lines, the width is what bounds it.
            let narrow = try await sandbox.run(arguments, against: server, environment: ["COLUMNS": "40", "LINES": "200"])
            let wide = try await sandbox.run(arguments, against: server, environment: ["COLUMNS": "100", "LINES": "200"])
            let short = try await sandbox.run(arguments, against: server, environment: ["COLUMNS": "100", "LINES": "10"])
            try #require(narrow.succeeded && wide.succeeded && short.succeeded, "\(narrow)\n\(wide)\n\(short)")

            let narrowLines = Self.previewLines(narrow)
            let wideLines = Self.previewLines(wide)
            #expect(!narrowLines.isEmpty && !wideLines.isEmpty, "\(narrow)\n\(wide)")
            let narrowWidths = narrowLines.map { Self.visible($0).count }
            let wideWidths = wideLines.map { Self.visible($0).count }
            #expect(narrowWidths.max() == 40, "\(narrowWidths)")
            #expect(wideWidths.max() == 100, "\(wideWidths)")
            #expect(narrow.standardOutput != wide.standardOutput)
            // Half of LINES for the preview, as on a terminal.
            #expect(Self.previewLines(short).count <= 5, "\(short.standardOutput)")
            // The post's text wraps at the same width.
            let lines = narrow.standardOutput.components(separatedBy: "\n")
            let titleLine = lines.firstIndex { $0.hasPrefix("#42  ") }
            let title = try #require(titleLine, "\(narrow.standardOutput)")
            // The title and the meta line (each wrapped at 40), a blank line, then the body
            // up to the next blank line.
            let blank = try #require(lines[title...].firstIndex(of: ""), "\(narrow.standardOutput)")
            let headingFits = lines[title..<blank].allSatisfy { $0.count <= 40 }
            #expect(headingFits, "\(narrow.standardOutput)")
            let body = lines[(blank + 1)...].prefix { !$0.isEmpty }
            let bodyWidths = body.map(\.count)
            #expect(!bodyWidths.isEmpty && bodyWidths.max() ?? 0 <= 40, "\(narrow.standardOutput)")
        }
    }

    @Test("COLUMNS or LINES that are not a positive number change nothing; a huge one is capped")
    func invalidValuesAreIgnored() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let arguments = ["show", "42", "--images", "symbols"]
            let plain = try await sandbox.run(arguments, against: server)
            try #require(plain.succeeded, "\(plain)")
            let plainWidths = Self.previewLines(plain).map(Self.visible).map(\.count)
            // 80 × 24: a box of 80 × 12 cells, 24 columns for a square image.
            #expect(plainWidths.max() == 24 && Self.previewLines(plain).count == 12, "\(plain)")
            for value in ["", "abc", "0", "000", "-40", "+40", "40.5", " 40", "4O", "٤٠"] {
                let run = try await sandbox.run(arguments, against: server, environment: ["COLUMNS": value, "LINES": value])
                #expect(run.succeeded, "\(value): \(run)")
                #expect(Self.previewLines(run) == Self.previewLines(plain), "COLUMNS=LINES='\(value)'")
            }
            // A huge number, even one too long for an Int, is taken as 1000 columns, 1000 lines.
            for value in ["1000000", "99999999999999999999999999"] {
                let huge = try await sandbox.run(arguments, against: server, environment: ["COLUMNS": value, "LINES": value])
                #expect(huge.succeeded, "\(huge)")
                let widths = Self.previewLines(huge).map(Self.visible).map(\.count)
                #expect(widths.max() == 1000 && widths.count == 500, "\(value): \(widths.max() ?? 0), \(widths.count) lines")
            }
        }
    }
}

/// Piped `browse` drew its rules 80 wide and wrapped the detail view at 80 whatever
/// `COLUMNS` said, unlike `show`, `list` and `page`.
@Suite("postfeed browse piped: COLUMNS sizes the rules and the detail view's wrap")
struct PipedBrowseWidthTests {
    @Test("COLUMNS=40: rules 40 wide, the opened post wrapped at 40; no COLUMNS: 80")
    func rulesAndWrapFollowColumns() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            for (columns, width) in [("40", 40), ("", 80), ("junk", 80)] {
                let environment = columns.isEmpty ? [:] : ["COLUMNS": columns]
                let run = try await sandbox.run(
                    ["browse", "--images", "none"], against: server, standardInput: Data("oq".utf8), environment: environment)
                try #require(run.succeeded, "\(run)")
                let lines = run.outputLines
                let rules = lines.filter { !$0.isEmpty && $0.allSatisfy { $0 == "─" } }
                #expect(!rules.isEmpty, "COLUMNS=\(columns): no rule in \(run.standardOutput)")
                for rule in rules { #expect(rule.count == width, "COLUMNS=\(columns): a rule \(rule.count) wide") }
                // The detail view (from its "#1" title line to its closing line): none wider.
                let detail = lines.drop { !$0.hasPrefix("#1 ") }.prefix { $0 != "(any key to go back)" }
                try #require(detail.count > 5, "COLUMNS=\(columns): no detail view in \(run.standardOutput)")
                let widest = detail.map { DisplayWidth.of($0) }.max() ?? 0
                #expect(widest <= width, "COLUMNS=\(columns): a line \(widest) wide: \(detail.joined(separator: "\n"))")
                #expect(widest > width / 2, "COLUMNS=\(columns): nothing near the width, \(widest)")
            }
        }
    }
}
