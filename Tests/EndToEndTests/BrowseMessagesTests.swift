import Foundation
import PostFeedServer
import Testing

/// What `browse` says while it loads: `l` shows whole what the status line cut, and the
/// header counts the posts a `g` load has loaded, as the indicator and the message do. In a
/// real terminal (tmux).
@Suite("postfeed browse: messages and counts (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseMessagesTests {
    @Test("a status line cut with [l] (a message and the catalog's progress): l shows both whole")
    func lShowsWhatWasCut() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 40, rows: 20)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.first?.contains("posts 1–") == true }

            // When: j starts the catalog; s says a long message beside its progress
            try pane.type("j")
            try await pane.requireScreen { $0.first?.contains("posts 2–") == true }
            try pane.type("s")
            try await pane.requireScreen { $0.last?.hasSuffix("[l]") == true && $0.first?.contains("most popular") == true }
            let cutLine = try await pane.requireScreen { $0.last?.hasSuffix("[l]") == true }

            // When: l; Then: the message and the catalog's progress, whole
            try pane.type("l")
            let message = try await pane.requireScreen { $0.last == "(any key closes this)" }
            let text = message.dropLast().joined(separator: " ")
            #expect(text.contains("most popular first") && text.contains("catalog"), "cut: \(cutLine.last ?? "")\nl: \(text)")
            try pane.type("x")
            try await pane.quitBrowse()
        }
    }

    /// The number after `prefix` and before `suffix` in `text` (no Regex: capturing one in a
    /// test's closure crashed the SendNonSendable pass, Swift 6.3.1).
    private static func number(after prefix: String, before suffix: String, in text: String) -> Int? {
        guard let start = text.range(of: prefix) else { return nil }
        let digits = text[start.upperBound...].prefix { $0.isNumber }
        guard !digits.isEmpty, text[start.upperBound...].dropFirst(digits.count).hasPrefix(suffix) else { return nil }
        return Int(digits)
    }

    /// The header's count of loaded posts ("of 40 loaded").
    private static func headerCount(_ lines: [String]) -> Int? {
        lines.first.flatMap { number(after: " of ", before: " loaded", in: $0) }
    }

    /// While `g 200` loads: the indicator's count, when 40 or more, equals the header's.
    private static func countsAgreeWhileLoading(_ lines: [String]) -> Bool {
        guard let header = lines.first, let indicated = number(after: "post #200: ", before: " loaded", in: header),
            indicated >= 40
        else { return false }
        return headerCount(lines) == indicated
    }

    /// The count of "stopped loading: N posts loaded" on the status line.
    private static func stoppedCount(_ lines: [String]) -> Int? {
        lines.last.flatMap { number(after: "stopped loading: ", before: " posts loaded", in: $0) }
    }

    /// After Esc: the message's count equals the header's, the load's indicator gone.
    private static func countsAgreeAfterStop(_ lines: [String]) -> Bool {
        guard let said = stoppedCount(lines), lines.first?.contains("post #200") == false else { return false }
        return headerCount(lines) == said
    }

    @Test("g 200 on a slow server: the header counts what is loaded as the indicator does; Esc says the count the header shows")
    func goToCountsAgree() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(600))) { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 140, rows: 30)
            try pane.startBrowse(sandbox: sandbox, server: server)
            try await pane.requireScreen { $0.first?.contains("posts 1–") == true }

            // When: g 200
            try pane.type("g200", enter: true)

            // Then: while loading, once 40 or more are loaded, the header says as many
            try await pane.requireScreen(Self.countsAgreeWhileLoading)

            // When: Esc; Then: the message's count is the header's
            try pane.press("Escape")
            let stopped = try await pane.requireScreen(Self.countsAgreeAfterStop)
            let said = Self.stoppedCount(stopped) ?? 0
            #expect(said >= 40, "\(stopped.joined(separator: "\n"))")
            try await pane.quitBrowse()
        }
    }
}

/// `g` and the keys of the other mode, with piped keys.
@Suite("postfeed browse: g and mode messages (piped keys)")
struct BrowseGoToMessagesTests {
    @Test("g with nothing typed cancels silently; a number past Int is past the end; past the known total is said at once")
    func goToPastTheEnd() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let keys = "g\ng99999999999999999999\ng300\nq"
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data(keys.utf8))
            #expect(run.succeeded, "\(run)")
            #expect(!run.standardOutput.contains("is not a number"), "\(run)")
            #expect(run.outputLines.contains("the feed ends at post #247; there is no post #99999999999999999999"), "\(run)")
            #expect(run.outputLines.contains("the feed ends at post #247; there is no post #300"), "\(run)")
            // Nothing was loaded for them: still the first page's 20 posts.
            let loadedMore = run.standardOutput.contains("loading up to post #")
            #expect(!loadedMore, "\(run)")
        }
    }

    @Test("u in paged mode says what u does, not what s does")
    func uInPagedMode() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("mug999\nq".utf8))
            #expect(run.succeeded, "\(run)")
            #expect(!run.standardOutput.contains("s and u order"), "\(run)")
            #expect(run.outputLines.contains("u hides posts seen in earlier runs in the infinite feed; m switches to it"), "\(run)")
            #expect(run.outputLines.contains("page 999 is past the end (13 pages); try 1…13"), "\(run)")
        }
    }
}

/// `TERM=dumb` draws no colour, as `NO_COLOR` (tmux).
@Suite("postfeed browse: TERM=dumb has no colour (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseDumbTerminalTests {
    @Test("TERM=dumb: the header is not coloured")
    func noColour() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            let binary = try PostfeedProcess.executable().path
            try pane.type(
                "clear; TERM=dumb \(binary) browse --images none --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                    + "; echo \"exit $?\" > browse.status",
                enter: true)
            let screen = try await pane.requireScreen(escapes: true) { $0.first?.contains("posts 1–") == true && $0.count > 2 && $0[2].contains("\u{1B}[7m") }
            #expect(!(screen.first ?? "").contains("\u{1B}[1;36m") && !(screen.first ?? "").contains("36m"), "\(screen.first ?? "")")
            try pane.type("q")
            let status = try await pane.waitForFile("browse.status")
            #expect(status == "exit 0\n", "\(status ?? "no status")")
        }
    }
}
