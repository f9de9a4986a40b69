import Foundation
import PostFeedServer
import Testing

@testable import postfeed

/// What a backend sends is shown, never obeyed: titles, authors and bodies with escape
/// sequences, bells, tabs and line breaks reach the terminal as plain text, and no URL's
/// credentials reach any output or any file of the cache.
@Suite struct HostileTextTests {
    /// Post 1's title sets the terminal title (OSC 2), recolours (CSI), rings the bell and
    /// breaks the line; its author carries a CSI, its body a clear-screen and a tab.
    static let hostileTitle = "Garden \u{1B}]2;PWNED\u{07} notes\n\u{1B}[31mred\u{1B}[0m\tand\r\u{9B}2J done"
    static let hostileAuthor = "Eve \u{1B}[5mblink"
    static let hostileBody = "First line\u{1B}[2J cleared\nsecond\tline\u{07}"

    private func withHostileServer(_ body: (RunningFixtureServer) async throws -> Void) async throws {
        let fixtures = try FixtureCopy()
        let postsFile = fixtures.directory.appendingPathComponent("posts.json")
        var posts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: postsFile)) as? [[String: Any]])
        posts[0]["title"] = Self.hostileTitle
        posts[0]["author"] = Self.hostileAuthor
        posts[0]["body"] = Self.hostileBody
        try JSONSerialization.data(withJSONObject: posts).write(to: postsFile)
        try await RunningFixtureServer.withRunning(fixtures.configuration(), body)
    }

    private static func controlScalars(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) }
    }

    @Test("list, page and show print a server's escape sequences, bells and tabs as nothing, and its title on one line")
    func commandsPrintPlainText() async throws {
        try await withHostileServer { server in
            let sandbox = try Sandbox()
            for arguments in [["list", "--pages", "1", "--no-images"], ["page", "1", "--no-images"], ["show", "1", "--images", "none"]] {
                let run = try await sandbox.run(arguments, against: server)
                #expect(run.succeeded, "\(arguments): \(run)")
                let output = run.standardOutput + run.standardError
                let controls = Self.controlScalars(in: output)
                #expect(controls.isEmpty, "\(arguments) printed control characters \(controls): \(output.debugDescription)")
                let titleLines = run.standardOutput.split(separator: "\n").filter { $0.contains("Garden") }
                #expect(titleLines.count == 1, "\(arguments): \(run.standardOutput)")
                #expect(titleLines.first?.contains("Garden  notes red and  done") == true, "\(titleLines)")
                #expect(output.contains("Eve blink"), "\(arguments): \(output)")
            }
            // --json keeps the server's text exactly (escaped by JSON, never raw).
            let json = try await sandbox.run(["show", "1", "--json"], against: server)
            #expect(json.succeeded, "\(json)")
            let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            let post = decoded?["post"] as? [String: Any]
            #expect(post?["title"] as? String == Self.hostileTitle)
            #expect(Self.controlScalars(in: json.standardOutput).isEmpty, "\(json.standardOutput.debugDescription)")
        }
    }

    @Test("terminalLine drops escape sequences whole and other controls, folds line breaks; terminalLines keeps \\n; printable text is untouched")
    func terminalText() {
        #expect("a\u{1B}[31mb\u{07}c\td".terminalLine == "abc d")
        #expect("x\u{1B}cy\u{1B}[?25lz\u{1B}P1;2|data\u{1B}\\w".terminalLine == "xyzw")
        // An introducer never terminated goes alone; the text after it stays.
        #expect("keep \u{1B}]2;rest".terminalLine == "keep ]2;rest")
        #expect("keep \u{1B}[12".terminalLine == "keep [12")
        #expect("one\r\ntwo\nthree\rfour\u{2028}five".terminalLine == "one two three four five")
        #expect("one\r\ntwo\n\nthree\u{1B}]0;x\u{07}".terminalLines == "one\ntwo\n\nthree")
        #expect("\u{85}\u{9B}31m\u{7F}".terminalLine == " ")
        // Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
        // would reorder what follows them on the line ("Trojan Source"): dropped. The
        // left-to-right and right-to-left marks (U+200E, U+200F) only mark: kept.
        #expect("Eve \u{202E}evil\u{202C} · id 1".terminalLine == "Eve evil · id 1")
        #expect("a\u{2066}b\u{2067}c\u{2068}d\u{2069}e\u{202A}f\u{202B}g\u{202D}h".terminalLines == "abcdefgh")
        let printable = "田中 太郎 👨‍👩‍👧 é ́ שלום \u{200B}\u{200E}\u{200F}"
        #expect(printable.terminalLine == printable)
        #expect(printable.terminalLines == printable)
    }

    @Test("a base URL's user:password reaches no output and no file of the cache (keys carry a digest instead)")
    func baseURLCredentialsStayOut() async throws {
        try await withFixtureServer { server in
            let sandbox = try Sandbox()
            var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
            components.user = "reader"
            components.password = "s3cr3t-pw"
            let withCredentials = try #require(components.string)

            let commands = [
                ["list", "--pages", "1"], ["show", "2", "--json", "--images", "none"], ["page", "2", "--json"],
                ["show", "3", "--images", "none"],
            ]
            for arguments in commands {
                let run = try await sandbox.run(arguments + ["--base-url", withCredentials])
                #expect(run.succeeded, "\(arguments): \(run)")
                #expect(!(run.standardOutput + run.standardError).contains("s3cr3t"), "\(arguments): \(run)")
            }
            let leaking = sandbox.regularFiles(under: sandbox.cacheRoot).filter { file in
                (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self).contains("s3cr3t") } ?? false
            }
            #expect(leaking.isEmpty, "files holding the password: \(leaking.map(\.path))")
            #expect(!sandbox.cacheEntries(in: sandbox.pageCacheDirectory).isEmpty)
        }
    }

    @Test("a password with characters a URL does not allow there is not shown either", arguments: [
        ("--proxy", "pa ss"), ("--proxy", "pa\"ss"), ("--proxy", "pa#ss"), ("--proxy", "pa/ss"), ("--proxy", "p@ss"),
        ("--base-url", "pa#ss"), ("--base-url", "pa ss"), ("--base-url", "pa/ss"),
    ])
    func oddPasswordsStayHidden(option: String, password: String) async throws {
        let url = "http://me:\(password)@127.0.0.1:1"
        let run = try await Sandbox().run(["page", "1", "--no-images", "--verbose", option, url])
        #expect(run.failed, "\(run)")
        let output = run.standardOutput + run.standardError
        #expect(!output.contains(password), "\(option) \(url): \(output)")
        #expect(!output.contains("me:"), "\(option) \(url): \(output)")
        #expect(output.contains("127.0.0.1:1"), "\(option) \(url): the message names what failed: \(output)")
    }
}
