import Foundation
import PostFeedServer
import Testing

@testable import postfeed

/// Keys typed at `browse`'s prompts: UTF-8 decoded whole, Backspace erasing one character.
@Suite("postfeed browse: prompts decode UTF-8 keys")
struct BrowseUTF8KeysTests {
    @Test("one key's UTF-8 bytes make one character; a malformed sequence is U+FFFD")
    func decodesSequences() {
        #expect(UTF8Sequence.length(ofSequenceStartingWith: 0xC3) == 2)
        #expect(UTF8Sequence.length(ofSequenceStartingWith: 0xE6) == 3)
        #expect(UTF8Sequence.length(ofSequenceStartingWith: 0xF0) == 4)
        #expect(UTF8Sequence.character(from: [0xC3, 0xA9]) == "é")
        #expect(UTF8Sequence.character(from: Array("漢".utf8)) == "漢")
        #expect(UTF8Sequence.character(from: Array("😀".utf8)) == "😀")
        #expect(UTF8Sequence.character(from: [0xC3]) == "\u{FFFD}")
        #expect(UTF8Sequence.character(from: [0xFF]) == "\u{FFFD}")
    }

    @Test("/Chloé finds Chloé Dubois's post #26 (piped keys, after g30)")
    func searchesAccentedWord() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("g30\n/Chloé\nq".utf8))
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.contains("/Chloé"), "the prompt shows what was typed\n\(run)")
            let found = run.outputLines.contains { $0.hasPrefix("match 1 of ") && $0.hasSuffix("for “Chloé”") }
            #expect(found, "\(run)")
        }
    }

    @Test("Backspace erases one character, not one byte: /Chloéé⌫ searches “Chloé”")
    func backspaceErasesACharacter() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["browse"], against: server, standardInput: Data("g30\n/Chloéé\u{7F}\nq".utf8))
            #expect(run.succeeded, "\(run)")
            let searched = run.outputLines.contains { $0.hasPrefix("match 1 of ") && $0.hasSuffix("for “Chloé”") }
            #expect(searched, "\(run)")
        }
    }
}

/// Ctrl-Z and `fg` in a real terminal (tmux).
@Suite("postfeed browse: Ctrl-Z restores the terminal, fg draws the screen again (tmux)", .serialized, .enabled(if: TmuxPane.isAvailable, "needs tmux"))
struct BrowseSuspendTests {
    @Test("Ctrl-Z: the shell prompt on the main screen with the original stty; fg: the list back and j moves the highlight; in a prompt, é typed in the terminal")
    func suspendAndContinue() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: browse run from the pane's shell (job control on)
            let pane = try TmuxPane(directory: sandbox.directory, columns: 100, rows: 30)
            let binary = try PostfeedProcess.executable().path
            try pane.type("stty -g > stty-before; echo EARLIER-OUTPUT", enter: true)
            _ = try await pane.waitForFile("stty-before")
            try pane.type(
                "\(binary) browse --images none --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)",
                enter: true)
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts 1–") == true }

            // When: Ctrl-Z
            try pane.press("C-z")

            // Then: the main screen with the shell's output, no frame, the termios as before
            let suspended = try await pane.requireScreen { $0.contains { $0.contains("EARLIER-OUTPUT") } }
            let showsFrame = suspended.contains { $0.hasPrefix("PostFeed · ") }
            #expect(!showsFrame, "\(suspended.joined(separator: "\n"))")
            try pane.type("stty -g > stty-suspended", enter: true)
            let during = try await pane.waitForFile("stty-suspended")
            let before = try String(contentsOf: sandbox.directory.appendingPathComponent("stty-before"), encoding: .utf8)
            #expect(during == before, "stty -g before \(before), while stopped \(during ?? "never")")

            // When: fg
            try pane.type("fg", enter: true)

            // Then: the list again, and keys work: j moves the highlight
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts 1–") == true }
            try pane.type("j")
            try await pane.requireScreen { $0.first?.hasPrefix("PostFeed · infinite · posts 2–") == true }
            // Then: the search prompt takes é from the terminal whole
            try pane.type("/Chloé", enter: true)
            try await pane.requireScreen { $0.last?.contains("for “Chloé”") == true }

            // When: q, then (back on the main screen: leaving raw mode drops typed-ahead
            // keys) the shell records the status and the termios
            try pane.type("q")
            try await pane.requireScreen { $0.contains { $0.contains("place saved") } }
            try pane.type("echo \"exit $?\" > browse.status; stty -g > stty-after", enter: true)
            let status = try await pane.waitForFile("browse.status")
            #expect(status == "exit 0\n", "\(status ?? "no status")")
            let after = try await pane.waitForFile("stty-after")
            #expect(after == before, "stty -g before \(before), after \(after ?? "never")")
        }
    }
}

/// Quitting stops the key reader before the terminal goes back to the shell, so keys typed
/// after `q` are the shell's, not swallowed by a reader still running.
@Suite("postfeed browse: the key reader stops before the terminal is restored")
struct KeyReaderStopTests {
    @Test("stop() wakes a reader blocked on no input, and a key written after it stays unread for the next reader")
    func keysAfterStopStayUnread() async throws {
        // Given: a reader on a pipe that has delivered one key
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let terminal = RawTerminal(input: ends[0])
        let reader = KeyReader.start(terminal)
        var keys = reader.keys.makeAsyncIterator()
        #expect(Glibc.write(ends[1], "j", 1) == 1)
        let first = await keys.next()
        #expect(first == .character("j"))

        // When: stopped while blocked on the empty pipe, then a key is typed
        try #require(reader.stop(), "the reader went on reading after stop()")
        #expect(Glibc.write(ends[1], "x", 1) == 1)

        // Then: the stream ends (after an end-of-input key) and "x" is still in the pipe
        var rest: [RawTerminal.Key] = []
        while let key = await keys.next() { rest.append(key) }
        #expect(rest == [.endOfInput])
        var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 0) == 1, "the key written after stop() was read")
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1)
        #expect(byte == UInt8(ascii: "x"))

        // And: stopping again (browse's `defer` does) returns at once, not after a wait
        let clock = ContinuousClock()
        let start = clock.now
        #expect(reader.stop())
        #expect(clock.now - start < .milliseconds(500), "a second stop() waited \(clock.now - start)")
    }
}
