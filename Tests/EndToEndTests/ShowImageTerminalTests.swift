import Foundation
import PostFeedServer
import Testing

private let tmuxInstalled = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
    .contains { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("postfeed show in a real terminal (tmux)", .serialized, .enabled(if: tmuxInstalled, "needs tmux"))
struct ShowImageTerminalTests {
    /// `show.sh ARGS…`: postfeed against `server` with the sandbox's cache, by absolute
    /// path (so a test may empty PATH).
    private func writeScript(_ sandbox: Sandbox, server: RunningFixtureServer) throws {
        let binary = try PostfeedProcess.executable().path
        let script = "#!/bin/sh\nexec \(binary) \"$@\" --base-url \(server.baseURL.absoluteString) --cache-dir \(sandbox.cacheRoot.path)\n"
        try script.write(to: sandbox.directory.appendingPathComponent("show.sh"), atomically: true, encoding: .utf8)
    }

    /// Runs `command` in a cleared pane and waits for it; the screen afterwards.
    private func run(_ command: String, in pane: TmuxPane, status: String) async throws -> [String] {
        try pane.type("clear; \(command); echo \"exit $?\" > \(status)", enter: true)
        let ended = try await pane.waitForFile(status)
        #expect(ended == "exit 0\n", "\(command): \(ended ?? "did not end")")
        return try pane.screen()
    }

    /// The rows above post `id`'s title line: the preview.
    private func previewRows(_ screen: [String], id: Int) throws -> [String] {
        let titleLine = screen.firstIndex { $0.hasPrefix("#\(id)  ") }
        let title = try #require(titleLine, "\(screen.joined(separator: "\n"))")
        return Array(screen[..<title])
    }

    @Test("--images auto asks the terminal about sixel without eating what the user typed ahead")
    func typeAheadSurvivesTheQuery() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            try writeScript(sandbox, server: server)
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 30)
            // The line is typed while postfeed starts (and queries the terminal); the shell
            // reads it once postfeed is done.
            try pane.type("clear; sh show.sh show 42 --images auto; read typed; echo \"got[$typed]\" > got", enter: true)
            try pane.type("typed ahead", enter: true)
            let got = try await pane.waitForFile("got")
            #expect(got == "got[typed ahead]\n", "\(got ?? "the shell never read a line")")
        }
    }

    @Test("symbols fill the cells above the text, at most half the window, and change with the image")
    func symbolsOnScreen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            try writeScript(sandbox, server: server)
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 30)

            // When: post 42 in monochrome symbols
            let screen42 = try await run("NO_COLOR=1 sh show.sh show 42 --images symbols", in: pane, status: "s42")
            let rows42 = try previewRows(screen42, id: 42)

            // Then: at most 15 rows (half of 30), most of them drawn
            #expect(rows42.count >= 10 && rows42.count <= 15, "\(rows42.count) rows:\n\(screen42.joined(separator: "\n"))")
            let drawn = rows42.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(drawn.count * 3 >= rows42.count * 2, "\(rows42.joined(separator: "\n"))")
            let fitTheWidth = rows42.allSatisfy { $0.count <= 80 }
            #expect(fitTheWidth)

            // When: another post's image; Then: other cells
            let screen1 = try await run("NO_COLOR=1 sh show.sh show 1 --images symbols", in: pane, status: "s1")
            let rows1 = try previewRows(screen1, id: 1)
            #expect(!rows1.isEmpty && rows1 != rows42)

            // With colour, the cells carry colour attributes
            _ = try await run("sh show.sh show 42 --images symbols", in: pane, status: "s42c")
            let coloured = try pane.screen(escapes: true)
            let titleLine = coloured.firstIndex { $0.contains("#42  ") }
            let title = try #require(titleLine)
            let colour = /\x1B\[[0-9;]*(38;|48;|3[0-7]m|4[0-7]m|9[0-7]m|10[0-7]m)/
            let hasColour = coloured[..<title].contains { $0.contains(colour) }
            #expect(hasColour, "\(coloured.joined(separator: "\n"))")

            // NO_COLOR: symbols written without a single escape sequence
            _ = try await run("NO_COLOR=1 sh show.sh show 42 --images symbols > mono.txt", in: pane, status: "smono")
            let mono = try String(contentsOf: sandbox.directory.appendingPathComponent("mono.txt"), encoding: .utf8)
            #expect(!mono.contains("\u{1B}") && mono.contains("#42  "))
            let monoRows = mono.components(separatedBy: "\n").prefix { !$0.hasPrefix("#42  ") }
            let drawsSymbols = monoRows.contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(drawsSymbols)
        }
    }

    @Test("--open writes ./42.png and hands it to xdg-open; without xdg-open, one line says where the file is")
    func openWithAndWithoutXdgOpen() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            try writeScript(sandbox, server: server)
            let bin = sandbox.directory.appendingPathComponent("bin", isDirectory: true)
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let opener = bin.appendingPathComponent("xdg-open")
            try "#!/bin/sh\necho \"$@\" > \(sandbox.directory.path)/opened.txt\n".write(to: opener, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
            let pane = try TmuxPane(directory: sandbox.directory, columns: 80, rows: 30)
            let written = sandbox.directory.appendingPathComponent("42.png")
            let original = try Data(contentsOf: PostfeedProcess.packageRoot.appendingPathComponent("Fixtures/images/img-060.png"))

            // When: xdg-open is on the PATH
            _ = try await run("PATH=\(bin.path):$PATH sh show.sh show 42 --open --images none > out1.txt 2> err1.txt", in: pane, status: "o1")
            // Then: it was given the written file, the original bytes
            let opened = try String(contentsOf: sandbox.directory.appendingPathComponent("opened.txt"), encoding: .utf8)
            #expect(opened.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("42.png"), "\(opened)")
            #expect(try Data(contentsOf: written) == original)

            // When: no xdg-open anywhere on the PATH
            try FileManager.default.removeItem(at: written)
            _ = try await run("PATH=/nonexistent /bin/sh show.sh show 42 --open --images none > out2.txt 2> err2.txt", in: pane, status: "o2")
            // Then: one line saying so and where the file is; the text was shown
            let errors = try String(contentsOf: sandbox.directory.appendingPathComponent("err2.txt"), encoding: .utf8)
                .split(separator: "\n")
            #expect(errors.count == 1 && errors[0].contains("xdg-open is not installed") && errors[0].contains(written.path), "\(errors)")
            #expect(try Data(contentsOf: written) == original)
            let output = try String(contentsOf: sandbox.directory.appendingPathComponent("out2.txt"), encoding: .utf8)
            #expect(output.hasPrefix("#42  "))
        }
    }
}
