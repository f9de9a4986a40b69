import Foundation
import Logging
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@testable import postfeed

/// Issue 30, "Typed recovery": the library hands over a ``Recovery``; the CLI says it with
/// its own flags and commands (`RecoveryAdvice`), so the printed lines stay as helpful as
/// they were when the library named the flags itself.
@Suite("Recovery advice")
struct RecoveryAdviceTests {
    // MARK: The mapping

    /// What each recovery prints: the words the library printed itself before issue 30.
    static let expected: [Recovery: String] = [
        .allowMoreTime: "; check the server, or allow more time (--timeout, or a backend file's timeout)",
        .checkStalledServer: ": check the server (a longer --timeout does not lengthen this limit)",
        .checkProxy: "; check the proxy URL (--proxy, or HTTPS_PROXY / HTTP_PROXY / ALL_PROXY) and that it is running, "
            + "or go direct with --proxy \"\" or NO_PROXY",
        .checkBackend: "; check that the base URL and the backend describe this API (--base-url, --api or --backend)",
        .chooseAnotherCacheRoot: " or choose another cache folder with --cache-dir",
        .verifyCache: "; run `postfeed cache verify` or clear the cache",
        .resetState: " (postfeed state reset starts over)",
        .startFromFirstPage: " ('postfeed page --first' starts over)",
        .showPageOfThisBackend: " ('postfeed page' or 'postfeed list', which keep the file aside)",
        .raisePageBodyLimit: ". Raise the limit with a backend file's maximumPageBytes if such pages are expected",
    ]

    @Test("every recovery is worded with the CLI's flags and commands", arguments: Recovery.allCases)
    func mapping(recovery: Recovery) {
        #expect(RecoveryAdvice.advice(for: recovery) == Self.expected[recovery])
    }

    @Test("a stall's error: the CLI says a longer --timeout does not help")
    func stall() {
        let error = HTTPClientError(.timedOut, url: URL(string: "http://127.0.0.1:9/p"), timeout: .stall)
        #expect(RecoveryAdvice.message(for: error)
            == "http://127.0.0.1:9/p: stall timeout reached; the server stopped sending: check the server "
            + "(a longer --timeout does not lengthen this limit)")
    }

    @Test("a library warning carrying a recovery code is printed with the CLI's advice, the code not shown")
    func warningWithRecovery() {
        let line = CLILogHandler.line(
            level: .warning, message: "the page cache's index (/c/PageCache/ab): read: I/O error",
            metadata: ["component": "cache", Recovery.metadataKey: .string(Recovery.verifyCache.rawValue)])
        #expect(line == "postfeed: warning: [cache] the page cache's index (/c/PageCache/ab): read: I/O error; "
            + "run `postfeed cache verify` or clear the cache")
    }

    @Test("an error without recovery is printed as the library words it")
    func noRecovery() {
        let error = HTTPClientError(.cannotConnect, url: URL(string: "http://127.0.0.1:9/p"))
        #expect(RecoveryAdvice.message(for: error) == error.description)
        #expect(RecoveryAdvice.messageIfRecoverable(CLIError("x")) == nil)
    }

    @Test("cache stats names an explicit root by the flag that gives it")
    func rootSource() {
        #expect(RecoveryAdvice.rootSource(.option) == "--cache-dir")
        #expect(RecoveryAdvice.rootSource(.environment) == "$POSTFEED_CACHE_DIR")
    }

    // MARK: End to end

    @Test("a backend slower than --timeout: the error says to allow more time with --timeout")
    func allowMoreTime() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .seconds(3))) { server in
            let run = try await sandbox.run(["page", "2", "--no-images", "--timeout", "1"], against: server)
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.hasSuffix(Self.expected[.allowMoreTime] ?? "?") == true, "\(run)")
        }
    }

    @Test("a proxy that refuses: the error names --proxy and the proxy variables")
    func checkProxy() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["page", "1", "--no-images", "--proxy", "http://127.0.0.1:1"], against: server)
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains("the proxy http://127.0.0.1:1 failed") == true, "\(run)")
            #expect(run.errorMessage?.hasSuffix(Self.expected[.checkProxy] ?? "?") == true, "\(run)")
        }
    }

    @Test("a base URL whose posts path does not exist: the error names --base-url, --api and --backend")
    func checkBackend() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let wrong = server.baseURL.appendingPathComponent("nowhere").absoluteString
            // (--api: a base URL with a path and no --api is read as a feed)
            let run = try await sandbox.run(["page", "1", "--no-images", "--api", "postfeed", "--base-url", wrong])
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains("does not exist (HTTP 404") == true, "\(run)")
            #expect(run.errorMessage?.hasSuffix(Self.expected[.checkBackend] ?? "?") == true, "\(run)")
        }
    }

    @Test("a file in the way of the State folder: the error says to choose another folder with --cache-dir")
    func chooseAnotherCacheRoot() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let page = try await sandbox.run(["page", "1", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")
            try FileManager.default.removeItem(at: sandbox.stateDirectory)
            try Data("x".utf8).write(to: sandbox.stateDirectory)

            let run = try await sandbox.run(["page", "2", "--no-images"], against: server)
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.hasSuffix("move it" + (Self.expected[.chooseAnotherCacheRoot] ?? "?")) == true, "\(run)")
        }
    }

    @Test("--next on the last page: the error points to 'postfeed page --first'")
    func startFromFirstPage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let last = try await sandbox.run(["page", "13", "--no-images"], against: server)
            try #require(last.succeeded, "\(last)")
            let run = try await sandbox.run(["page", "--next", "--no-images"], against: server)
            #expect(run.errorMessage
                == "Error: page 13 is the last page; there is no next one" + (Self.expected[.startFromFirstPage] ?? "?"), "\(run)")
        }
    }

    @Test("a mode switch against another backend's place: the error names 'postfeed page' and 'postfeed list'")
    func showPageOfThisBackend() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let page = try await sandbox.run(["page", "5", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")
            let run = try await sandbox.run(["mode", "paged", "--base-url", "http://127.0.0.1:1"])
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.hasSuffix(
                "show a page of this backend to start here" + (Self.expected[.showPageOfThisBackend] ?? "?")) == true, "\(run)")
        }
    }
}
