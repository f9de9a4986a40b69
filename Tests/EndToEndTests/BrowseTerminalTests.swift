import Foundation
import PostFeedServer
import SuiteSupport
import Testing

/// `tmux` on the PATH: the terminal these tests drive (`make test-deps` installs it).
private let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// Runs `body` with `strings` as a NULL-terminated C array (argv, envp).
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    var pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    pointers.append(nil)
    return body(pointers)
}

/// A tmux server of its own (a private socket, no config file) with one pane running
/// `/bin/sh` in a sandbox: a real terminal whose screen `capture-pane` reads back.
final class TmuxPane {
    /// Whether tmux is installed.
    static var isAvailable: Bool { tmuxPath != nil }

    private let socket = "postfeed-test-\(UUID().uuidString.prefix(8))"
    let directory: URL

    init(directory: URL, columns: Int, rows: Int) throws {
        self.directory = directory
        try tmux(["new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)", "-c", directory.path, "/bin/sh"])
        try tmux(["set-option", "-g", "status", "off"])
        try tmux(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        guard let tmuxPath else { throw EndToEndError("tmux is not installed (make test-deps installs it)") }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        environment.removeValue(forKey: "POSTFEED_CACHE_DIR")
        environment.removeValue(forKey: "NO_COLOR")
        environment["HOME"] = directory.path
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent(".xdg-cache").path
        environment["PS1"] = "$ "
        // Output to a file, not a pipe: the server that new-session starts keeps the
        // client's descriptors, and a pipe would never reach its end. Spawned and reaped
        // with posix_spawn and waitpid: Foundation's Process never saw the tmux client
        // exit (it stayed a zombie and waitUntilExit hung).
        let outputURL = directory.appendingPathComponent(".tmux-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let argv = [tmuxPath, "-L", socket, "-f", "/dev/null"] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Started with no signal blocked (withCleanSignalSpawnAttributes): with the test
        // runner's mask, a tmux server with SIGCHLD and SIGTERM blocked never ends.
        var pid: pid_t = 0
        let spawned = withCleanSignalSpawnAttributes { attributes in
            withCStrings(argv) { cArgv in
                withCStrings(envp) { cEnvp in posix_spawn(&pid, tmuxPath, &actions, &attributes, cArgv, cEnvp) }
            }
        }
        guard spawned == 0 else { throw EndToEndError("cannot start tmux: error \(spawned)") }
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited == -1 && errno == EINTR
        let data = (try? Data(contentsOf: outputURL)) ?? Data()
        // Another reaper may have taken the status (ECHILD): judge by the output then.
        let exitStatus = waited == pid ? (status >> 8) & 0xff : 0
        guard exitStatus == 0 else {
            throw EndToEndError("tmux \(arguments.joined(separator: " ")) failed with status \(exitStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Types `text` literally, then Enter when asked.
    func type(_ text: String, enter: Bool = false) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
        if enter { try tmux(["send-keys", "-t", "t", "Enter"]) }
    }

    /// Sends a key by tmux's name for it (`C-c`, `Escape`).
    func press(_ key: String) throws { try tmux(["send-keys", "-t", "t", key]) }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The screen's lines as shown (all rows, trailing blanks kept as empty lines);
    /// with `escapes`, the attributes as escape sequences too.
    func screen(escapes: Bool = false) throws -> [String] {
        let text = try tmux(["capture-pane", "-p", "-t", "t"] + (escapes ? ["-e"] : []))
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits until the screen (with `escapes`, its attributes too) satisfies `predicate`; the
    /// last screen either way.
    ///
    /// Never write the predicate inside `#expect(…)` or `#require(…)` (`#expect(try await
    /// pane.waitForScreen { … }.ok)`), nor any closure literal inside those macros in a test whose
    /// body is a closure (`withFixtureServer { server in … }`): Swift 6.3.1 gives such a closure
    /// the same discriminator as a later closure literal outside the macro, emits only one of the
    /// two bodies, and calls it for both — the later `waitForScreen` then silently runs the
    /// earlier predicate (ok false on a screen its own predicate accepts, or ok true on a screen
    /// it rejects). Bind the result first, or use ``requireScreen(timeout:escapes:_:)``.
    @discardableResult
    func waitForScreen(
        timeout: Duration = .seconds(20), escapes: Bool = false, _ predicate: ([String]) -> Bool
    ) async throws -> (ok: Bool, screen: [String]) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var last: [String] = []
        while clock.now < deadline {
            last = try screen(escapes: escapes)
            if predicate(last) { return (true, last) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return (false, last)
    }

    /// Waits like ``waitForScreen(timeout:escapes:_:)`` and returns the screen satisfying
    /// `predicate`; throws with the last screen when it never did (the test stops there).
    @discardableResult
    func requireScreen(
        timeout: Duration = .seconds(20), escapes: Bool = false, _ predicate: ([String]) -> Bool
    ) async throws -> [String] {
        let result = try await waitForScreen(timeout: timeout, escapes: escapes, predicate)
        guard result.ok else {
            throw EndToEndError(
                "the screen never became the one awaited within \(timeout); the last one:\n"
                    + result.screen.joined(separator: "\n"))
        }
        return result.screen
    }

    /// Waits until `name` exists in the pane's directory and returns its contents.
    func waitForFile(_ name: String, timeout: Duration = .seconds(20)) async throws -> String? {
        let url = directory.appendingPathComponent(name)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}

extension TmuxPane {
    /// `postfeed browse` started from the pane's shell (the screen cleared first; no colour,
    /// no images) against `server`, caching in `sandbox`; its exit status goes to
    /// `browse.status` in the pane's folder when it ends.
    func startBrowse(sandbox: Sandbox, server: RunningFixtureServer) throws {
        let binary = try PostfeedProcess.executable().path
        try type(
            "clear; NO_COLOR=1 \(binary) browse --images none --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)"
                + "; echo \"exit $?\" > browse.status",
            enter: true)
    }

    /// `q` to a browse started by ``startBrowse(sandbox:server:)``, expecting exit status 0.
    func quitBrowse(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try type("q")
        let status = try await waitForFile("browse.status")
        #expect(status == "exit 0\n", "\(status ?? "no status")", sourceLocation: sourceLocation)
    }
}

@Suite("postfeed browse in a real terminal (tmux)", .serialized, .enabled(if: tmuxPath != nil, "needs tmux"))
struct BrowseTerminalTests {
    enum WayOut: String, CaseIterable, CustomTestStringConvertible {
        case q, controlC, controlBackslash, sigterm, sighup, error
        var testDescription: String { rawValue }
        /// `browse`'s exit status: 128 + the signal that ended it (the place saved as on
        /// `q`), as `list`'s.
        var status: String {
            switch self {
            case .q: "exit 0\n"
            case .controlC: "exit 130\n"
            case .controlBackslash: "exit 131\n"
            case .sigterm: "exit 143\n"
            case .sighup: "exit 129\n"
            case .error: "exit 1\n"
            }
        }
    }

    private static func isHeader(_ line: String?) -> Bool { line?.hasPrefix("PostFeed · ") == true }

    /// Whether the line is the header of the opened list (the first frame, drawn at once,
    /// says which mode opens before its posts are there).
    private static func isListHeader(_ line: String?) -> Bool { line?.hasPrefix("PostFeed · infinite · posts ") == true }

    /// The keys the help overlay must list, each at the start of its line.
    private static let helpKeys = ["j / ↓", "space / b", "n / p", "g ", "/ ", "n / N", "m ", "o / ⏎", "r ", "? ", "q "]

    /// Whether the help overlay is drawn whole: its title on top, a line for each of ``helpKeys``. (A static
    /// function: capturing a local array in the predicate crashed the compiler's
    /// SendNonSendable pass, Swift 6.3.1.)
    private static func listsEveryKey(_ lines: [String]) -> Bool {
        guard lines.first == "PostFeed · keys" else { return false }
        for key in helpKeys where !lines.contains(where: { $0.hasPrefix("  " + key) }) { return false }
        return true
    }

    /// Starts `browse` in the pane after recording `stty -g`; the shell records it again
    /// when browse has exited. The browse process writes its pid to `browse.pid`.
    private func startBrowse(in pane: TmuxPane, sandbox: Sandbox, server: RunningFixtureServer) throws {
        let binary = try PostfeedProcess.executable().path
        try pane.type("stty -g > stty-before; echo EARLIER-OUTPUT", enter: true)
        try pane.type(
            "sh -c 'echo $$ > browse.pid; exec \(binary) browse --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)'"
                + "; echo \"exit $?\" > browse.status; stty -g > stty-after",
            enter: true)
    }

    @Test("the alternate screen is left and the terminal restored exactly on every way out", arguments: WayOut.allCases)
    func restoresTerminal(wayOut: WayOut) async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: browse on its first frame, on the alternate screen
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, server: server)
            let shown = try await pane.waitForScreen { Self.isListHeader($0.first) }
            #expect(shown.ok, "\(shown.screen.joined(separator: "\n"))")
            let showsTheShell = shown.screen.contains { $0.contains("EARLIER-OUTPUT") }
            #expect(!showsTheShell, "the alternate screen hides the shell")
            let pidText = try await pane.waitForFile("browse.pid")
            let pidNumber = pidText.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let pid = try #require(pidNumber)

            // When
            switch wayOut {
            case .q: try pane.type("q")
            case .controlC: try pane.press("C-c")
            // SIGQUIT: the Swift runtime drew a crash report over the reader.
            case .controlBackslash: try pane.press("C-\\")
            case .sigterm: kill(pid, SIGTERM)
            case .sighup: kill(pid, SIGHUP)
            case .error:
                // the place cannot be saved: the state folder is now a file
                let state = sandbox.cacheRoot.appendingPathComponent("State")
                try? FileManager.default.removeItem(at: state)
                FileManager.default.createFile(atPath: state.path, contents: Data("in the way".utf8))
                try pane.type("q")
            }

            // Then: the shell ran on, with the same termios as before
            let after = try await pane.waitForFile("stty-after")
            let before = try String(contentsOf: sandbox.directory.appendingPathComponent("stty-before"), encoding: .utf8)
            #expect(after == before, "stty -g before \(before), after \(after ?? "never")")
            let status = try await pane.waitForFile("browse.status")
            #expect(status == wayOut.status, "\(status ?? "no status")")

            // Then: the main screen is back, with the shell's earlier output and no frame
            let screen = try await pane.waitForScreen { $0.contains { $0.contains("EARLIER-OUTPUT") } }
            #expect(screen.ok, "\(screen.screen.joined(separator: "\n"))")
            let showsAFrame = screen.screen.contains { Self.isHeader($0) }
            #expect(!showsAFrame, "\(screen.screen.joined(separator: "\n"))")
            if wayOut != .error {
                #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).anchor?.index == 0)
            }
        }
    }

    @Test("resizing re-lays out at once: header first, status line last, rows filled, rules as wide as the window")
    func resize() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, server: server)
            let first = try await pane.waitForScreen { Self.isListHeader($0.first) }
            #expect(first.ok, "\(first.screen.joined(separator: "\n"))")

            // When: shrunk to 80×24
            try pane.resize(columns: 80, rows: 24)

            // Then
            let small = try await pane.waitForScreen { $0.count == 24 && $0[1] == String(repeating: "─", count: 80) }
            #expect(small.ok, "\(small.screen.joined(separator: "\n"))")
            #expect(Self.isHeader(small.screen.first), "\(small.screen.joined(separator: "\n"))")
            #expect(small.screen[22].hasPrefix("j/k scroll"), "\(small.screen.joined(separator: "\n"))")

            // When: grown to 200×50
            try pane.resize(columns: 200, rows: 50)

            // Then: no block of blank rows where posts could be (once the page the taller
            // screen needs is loaded: the re-laid-out frame comes first, with 20 posts).
            // The rows are part of the wait: on busy cores a capture can land between the
            // header's line and the rows' lines of one frame.
            func blankRows(_ screen: [String]) -> Int {
                guard screen.count >= 47 else { return .max }
                return screen[2..<47].filter { $0.trimmingCharacters(in: .whitespaces).isEmpty }.count
            }
            let large = try await pane.waitForScreen {
                $0.count == 50 && $0[1] == String(repeating: "─", count: 200) && $0.first?.contains("posts 1–22") == true
                    && blankRows($0) <= 1
            }
            #expect(large.ok, "\(large.screen.joined(separator: "\n"))")
            #expect(Self.isHeader(large.screen.first), "\(large.screen.joined(separator: "\n"))")
            #expect(blankRows(large.screen) <= 1, "\(large.screen.joined(separator: "\n"))")
            #expect(large.screen.first?.contains("posts 1–22") == true, "\(large.screen.joined(separator: "\n"))")
            try pane.type("q")
            _ = try await pane.waitForFile("stty-after")
        }
    }

    @Test("the current post in reverse video; ? shows every key; / searches and n steps")
    func highlightHelpAndSearch() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            try startBrowse(in: pane, sandbox: sandbox, server: server)
            try await pane.requireScreen { Self.isHeader($0.first) }

            try await pane.requireScreen { Self.isListHeader($0.first) }

            // Then: the top post is in reverse video (once the frame is drawn whole: a capture
            // may land between the header and the rows), the next one is not
            let drawn = try await pane.waitForScreen(escapes: true) { $0.count > 4 && $0[2].contains("\u{1B}[7m") }
            let styled = drawn.screen
            #expect(drawn.ok, "\(styled.joined(separator: "\n"))")
            #expect(!styled[4].contains("\u{1B}[7m"), "\(styled[4])")

            // When: ?, then any key
            try pane.type("?")
            // Every key's line, not a capture taken while the overlay was being drawn.
            let help = try await pane.waitForScreen { Self.listsEveryKey($0) }
            #expect(help.ok, "\(help.screen.joined(separator: "\n"))")
            #expect(help.screen.first == "PostFeed · keys", "\(help.screen.joined(separator: "\n"))")
            try pane.type("x")
            try await pane.requireScreen { Self.isHeader($0.first) }

            // When: a search, then n
            try pane.type("/sourdough", enter: true)
            let found = try await pane.waitForScreen { $0.last?.hasPrefix("match 1 of ") == true }
            #expect(found.ok, "\(found.screen.joined(separator: "\n"))")
            try pane.type("n")
            let next = try await pane.waitForScreen { $0.last?.hasPrefix("match 2 of ") == true }
            #expect(next.ok, "\(next.screen.joined(separator: "\n"))")
            #expect(next.screen[2].localizedCaseInsensitiveContains("sourdough") || next.screen[3].localizedCaseInsensitiveContains("sourdough"))
            try pane.type("q")
            _ = try await pane.waitForFile("stty-after")
        }
    }
}
