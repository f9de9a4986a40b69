import Foundation
import PostFeedServer
import Testing

private let tmuxInstalled = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
    .contains { FileManager.default.isExecutableFile(atPath: $0) }

/// Issue 17: `show ID` printed nothing while a slow image loaded, though the post's text
/// had arrived: a frozen command. On a terminal a one-line note on stderr says what it
/// waits for (after 300 ms), and is erased before the preview is drawn above the text;
/// piped, stderr stays clean.
@Suite("postfeed show: a note while a slow image loads", .serialized)
struct ShowLoadingNoteTests {
    /// Post 42's image (7 KB), sent at 2 KB/s: about 3.5 s.
    static let slowImagePath = "/images/img-060.png"
    static let note = "loading image for post 42 from 127.0.0.1"

    private func withSlowImageServer<T>(_ body: (RunningFixtureServer) async throws -> T) async throws -> T {
        try await withFixtureServer(faults: FaultInjection(bandwidthLimits: [Self.slowImagePath: 2_048]), body)
    }

    @Test("in a terminal: the note while the image loads, then the preview above the text and no note left",
          .enabled(if: tmuxInstalled, "needs tmux"))
    func noteOnATerminal() async throws {
        let sandbox = try Sandbox()
        try await withSlowImageServer { server in
            let binary = try PostfeedProcess.executable().path
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 30)
            try pane.type(
                "clear; NO_COLOR=1 \(binary) show 42 --images symbols --base-url \(server.baseURL.absoluteString)"
                    + " --cache-dir \(sandbox.cacheRoot.path); echo \"exit $?\" > status",
                enter: true)

            // While the image crawls: the note, on one line, and no text yet.
            let loading = try await pane.requireScreen(timeout: .seconds(3)) { screen in
                screen.contains { $0.hasPrefix(Self.note) }
            }
            let noteLine = loading.first { $0.hasPrefix(Self.note) } ?? ""
            #expect(noteLine.hasSuffix("…"), "\(noteLine)")
            let textShown = loading.contains { $0.hasPrefix("#42  ") }
            #expect(!textShown, "\(loading.joined(separator: "\n"))")

            // Then: the preview above the text, the note gone.
            let ended = try await pane.waitForFile("status")
            #expect(ended == "exit 0\n", "\(ended ?? "did not end")")
            let screen = try pane.screen()
            let shown = screen.joined(separator: "\n")
            let titleLine = screen.firstIndex { $0.hasPrefix("#42  ") }
            let title = try #require(titleLine, "\(shown)")
            let preview = screen[..<title].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            // The command line itself (wrapped) is above the preview.
            let drawn = preview.filter { !$0.contains("postfeed") && !$0.contains("cache-dir") && !$0.contains("status") }
            #expect(drawn.count >= 10, "\(shown)")
            #expect(!shown.contains("loading image"), "\(shown)")
        }
    }

    /// The note was cut to stdout's width: with stdout in a file, 79 columns on a 30-column
    /// terminal, so it wrapped, and erasing its last row left the others behind.
    @Test("stdout in a file, stderr a 30-column terminal: the note fits stderr's row and leaves nothing behind",
          .enabled(if: tmuxInstalled, "needs tmux"))
    func noteFitsStandardErrorsWidth() async throws {
        let sandbox = try Sandbox()
        try await withSlowImageServer { server in
            let binary = try PostfeedProcess.executable().path
            let pane = try TmuxPane(directory: sandbox.directory, columns: 30, rows: 20)
            try pane.type(
                "clear; NO_COLOR=1 \(binary) show 42 --images symbols --base-url \(server.baseURL.absoluteString)"
                    + " --cache-dir \(sandbox.cacheRoot.path) > out.txt; echo \"exit $?\" > status",
                enter: true)

            // While the image crawls: the note on one row, cut to fit it.
            let loading = try await pane.requireScreen(timeout: .seconds(3)) { screen in
                screen.contains { $0.hasPrefix("loading image") }
            }
            let noteLine = loading.first { $0.hasPrefix("loading image") } ?? ""
            #expect(noteLine.hasSuffix("…") && noteLine.count < 30, "\(loading.joined(separator: "\n"))")

            // Then: ended, and no piece of the note left where it was.
            let ended = try await pane.waitForFile("status")
            #expect(ended == "exit 0\n", "\(ended ?? "did not end")")
            let output = try String(contentsOf: sandbox.directory.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(output.contains(ShowImageTests.title42))
            let after = try pane.screen()
            let left = after.contains { $0.hasPrefix("loading image") }
            #expect(!left, "\(after.joined(separator: "\n"))")
        }
    }

    @Test("piped (stderr not a terminal): nothing more on stderr, the same output")
    func quietWhenPiped() async throws {
        let sandbox = try Sandbox()
        try await withSlowImageServer { server in
            let run = try await sandbox.run(["show", "42", "--images", "symbols"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.isEmpty, "\(run.standardError)")
            #expect(run.standardOutput.contains(ShowImageTests.title42))
        }
    }
}
