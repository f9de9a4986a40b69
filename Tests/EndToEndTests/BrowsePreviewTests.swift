import Foundation
import PostFeedServer
import Testing

/// `browse --images`: the detail view's preview and the list's thumbnails, with keys piped
/// (one frame per key, after its loads) and in a real terminal (tmux).
@Suite("postfeed browse image previews", .serialized)
struct BrowsePreviewTests {
    /// Lines of the piped output from the last frame header before post `id`'s detail title.
    private static func linesAbove(title id: Int, in run: PostfeedResult) -> [String]? {
        let lines = run.standardOutput.components(separatedBy: "\n")
        guard let title = lines.firstIndex(where: { $0.hasPrefix("#\(id)  ") }) else { return nil }
        // The overlay starts after the last list frame's hints line (and its status line).
        let overlayStart = lines[..<title].lastIndex { $0.contains("? help · q quit") }.map { $0 + 1 } ?? 0
        return Array(lines[overlayStart..<title])
    }

    @Test("piped o with --images symbols: the preview's rows above the text; --images none: the text alone")
    func pipedSymbolsAndNone() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let drawn = try await sandbox.run(
                ["browse", "--images", "symbols"], against: server, standardInput: Data("oq".utf8),
                environment: ["NO_COLOR": "1"])
            #expect(drawn.succeeded, "\(drawn)")
            let above = try #require(Self.linesAbove(title: 1, in: drawn), "\(drawn)")
            let rows = above.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(rows.count >= 5, "symbols above the title: \(above.joined(separator: "\n"))")
            #expect(!drawn.standardOutput.contains("\u{1B}["), "NO_COLOR: no colour escapes")

            let none = try await sandbox.run(["browse", "--images", "none"], against: server, standardInput: Data("oq".utf8))
            #expect(none.succeeded, "\(none)")
            let noneAbove = try #require(Self.linesAbove(title: 1, in: none), "\(none)")
            let blankAbove = noneAbove.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(blankAbove, "\(noneAbove)")
        }
    }

    @Test("piped o with --images kitty writes a kitty graphics sequence before the text")
    func pipedKitty() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["browse", "--images", "kitty"], against: server, standardInput: Data("oq".utf8))
            #expect(run.succeeded, "\(run)")
            let kitty = try #require(run.standardOutput.range(of: "\u{1B}_G"), "no kitty sequence: \(run)")
            let title = try #require(run.standardOutput.range(of: "#1  "), "\(run)")
            #expect(kitty.lowerBound < title.lowerBound)
        }
    }

    /// Piped, the detail preview was sized for 80 × 24 whatever COLUMNS and LINES said (a
    /// kitty image over 12 rows of a 12-row "window").
    @Test("piped o: the preview fits COLUMNS and half of LINES, as on a terminal")
    func pipedPreviewFollowsColumnsAndLines() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(
                ["browse", "--images", "kitty"], against: server, standardInput: Data("oq".utf8),
                environment: ["COLUMNS": "50", "LINES": "12"])
            #expect(run.succeeded, "\(run)")
            let start = try #require(run.standardOutput.range(of: "\u{1B}_G"), "no kitty sequence: \(run)")
            let keys = run.standardOutput[start.upperBound...].prefix { $0 != ";" }.split(separator: ",")
            let columnKey = keys.first { $0.hasPrefix("c=") }.flatMap { Int($0.dropFirst(2)) }
            let rowKey = keys.first { $0.hasPrefix("r=") }.flatMap { Int($0.dropFirst(2)) }
            let columns = try #require(columnKey, "\(keys)")
            let rows = try #require(rowKey, "\(keys)")
            #expect(columns <= 50 && rows <= 6, "c=\(columns) r=\(rows)")
        }
    }

    @Test("a post whose image URL is empty: the reason alone above the text, not the backend's address as the image's")
    func emptyImageURL() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let postsFile = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: postsFile)) as? [[String: Any]])
        posts[0]["imageUrl"] = ""
        try JSONSerialization.data(withJSONObject: posts).write(to: postsFile)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["browse", "--images", "symbols"], against: server, standardInput: Data("oq".utf8))
            #expect(run.succeeded, "\(run)")
            let above = try #require(Self.linesAbove(title: 1, in: run), "\(run)")
            let notes = above.filter { $0.hasPrefix("(image not drawn: ") }
            #expect(notes == ["(image not drawn: the post's image URL is empty)"], "\(above)")
        }
    }

    @Test("an undecodable image: one line naming it above the text, and browse goes on")
    func badImage() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        let original = try Data(contentsOf: fixtures.image("img-060.png"))
        try fixtures.replace("img-060.png", with: original.prefix(original.count / 3))
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(
                ["browse", "--images", "symbols", "--base-url", server.baseURL.absoluteString],
                standardInput: Data("g42\noj q".utf8))
            #expect(run.succeeded, "\(run)")
            let above = try #require(Self.linesAbove(title: 42, in: run), "\(run)")
            let notes = above.filter { $0.hasPrefix("(image not drawn: ") }
            #expect(notes.count == 1 && notes.first?.contains("/images/img-060.png") == true, "\(above)")
            #expect(run.errorLines.last == "postfeed: place saved (infinite mode)", "\(run)")
        }
    }
}
