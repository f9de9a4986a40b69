import Foundation
import PostFeedHTTP
import PostFeedServer
import Testing

@testable import PostFeed
@testable import PostFeedCache

/// Issue 30, "Typed recovery": the library's errors say what failed and hand over a typed
/// ``Recovery``; their words never name a CLI flag or command (the CLI maps the recovery
/// to its flags: `Sources/postfeed/Output/RecoveryAdvice.swift`, checked end to end in
/// `RecoveryAdviceTests`).
@Suite("Typed recovery")
struct RecoveryTests {
    // MARK: No flag, no command

    @Test("no string of the library's sources names a CLI flag or command")
    func sourcesNameNoFlag() throws {
        let offenders = try LibraryText.literalsNamingTheCLI()
        #expect(offenders.isEmpty, "library strings naming the CLI:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the scan finds what it looks for: a flag, a quoted command, a command in backticks")
    func scanRecognisesFlags() {
        #expect(LibraryText.patterns.count == 3, "every pattern compiles")
        for text in ["pass --cache-dir with a writable folder", "('postfeed page --first' starts over)",
                     "run `postfeed cache verify` or clear the cache", "(postfeed state reset starts over)",
                     "allow more time (--timeout, or a backend file's timeout)"] {
            #expect(LibraryText.namesTheCLI(text), "\(text)")
        }
        for text in ["another postfeed saved a different place", "update postfeed to use it", "a--b", "-1"] {
            #expect(!LibraryText.namesTheCLI(text), "\(text)")
        }
    }

    @Test("every recovery's own words name no flag or command")
    func adviceNamesNoFlag() {
        for recovery in Recovery.allCases {
            #expect(!LibraryText.namesTheCLI(recovery.advice), "\(recovery): \(recovery.advice)")
            #expect(Recovery(rawValue: recovery.rawValue) == recovery, "the code \(recovery.rawValue) reads back")
        }
        for remedy in HTTPClientError.Remedy.allCases {
            #expect(!LibraryText.namesTheCLI(remedy.advice), "\(remedy): \(remedy.advice)")
            #expect(remedy.advice == Recovery(remedy).advice, "the HTTP layer and the library say it alike")
        }
        #expect(DiskCacheError.verifyAdvice == Recovery.verifyCache.advice, "the cache and the library say it alike")
    }

    // MARK: One test per recovery

    @Test("a total timeout: allow more time; a stall: check the server, a longer timeout does not help")
    func timeouts() {
        let url = URL(string: "http://127.0.0.1:9/api/posts")!
        let total = HTTPClientError(.timedOut, url: url, timeout: .total, detail: "2 s")
        #expect(total.recovery == .allowMoreTime)
        #expect(total.failure == "http://127.0.0.1:9/api/posts: total timeout reached (2 s)")
        #expect(total.description == total.failure + "; check the server, or allow more time")
        #expect(total.summary == "total timeout reached (2 s)")

        let stall = HTTPClientError(.timedOut, url: url, curlMessage: "quiet", timeout: .stall)
        #expect(stall.recovery == .checkStalledServer)
        #expect(stall.reason == "stall timeout reached (curl: quiet); the server stopped sending: check the server "
            + "(a longer request timeout does not lengthen this limit)")
        #expect(stall.summary == "stall timeout reached; the server stopped sending")

        let connect = HTTPClientError(.timedOut, url: url, timeout: .connect)
        #expect(connect.recovery == nil, "its message says what to do, no flag involved")
        #expect(connect.failure == connect.description)
    }

    @Test("a proxy that refuses: check the proxy, with the page's error carrying it")
    func proxy() async throws {
        try await FeedTestSupport.withClient(configure: { $0.http.proxy = .proxy("http://127.0.0.1:1") }) { client, _, _ in
            let error = await #expect(throws: RepositoryError.self) { _ = try await client.repository.page(client.repository.firstPageKey) }
            #expect(error?.recovery == .checkProxy, "\(String(describing: error))")
            #expect(error?.underlying?.code == .proxy)
            #expect(error?.description.hasSuffix("; check the proxy URL and that it is running, or go direct") == true)
            #expect(error?.failure.contains("the proxy http://127.0.0.1:1 failed") == true)
        }
    }

    @Test("a first page that does not exist: check the backend")
    func missingFirstPage() async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath("/no/such/posts")) { client, _ in
            let error = try #require(await FaultMatrix.firstPageError(client))
            #expect(error.code == .httpStatus)
            #expect(error.recovery == .checkBackend)
            #expect(error.description.contains("does not exist (HTTP 404"), "\(error)")
            #expect(error.description.hasSuffix("; check that the base URL and the backend describe this API"), "\(error)")
        }
    }

    @Test("a State folder that is a link: choose another cache root")
    func stateFolderLink() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let elsewhere = folder.url.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let store = ListStateStore(cacheRoot: folder.url)
        try FileManager.default.createSymbolicLink(at: store.directory, withDestinationURL: elsewhere)

        let error = try #require(throws: ListStateError.self) { try store.save(StateSamples.infinite()) }

        #expect(error.recovery == .chooseAnotherCacheRoot)
        #expect(error.message.hasSuffix("remove the link or choose another cache folder"), "\(error)")
    }

    @Test("a cache file that fails to read or write: verify the cache; the page index is not named by its key")
    func verifyCache() {
        let error = DiskCacheError(.ioFailure, path: "/c/PageCache/ab/cd", key: "postfeed.page-index", errno: EIO, reason: "read: I/O error")
        #expect(error.recovery == .verifyCache)
        #expect(error.description == "cache entry for postfeed.page-index (/c/PageCache/ab/cd): read: I/O error; verify the cache or clear it")
        let readable = FeedClient.readable(error)
        #expect(readable.failure == "the page cache's index (/c/PageCache/ab/cd): read: I/O error")
        #expect(readable.recovery == .verifyCache)

        let full = DiskCacheError(.diskFull, path: "/c/ImageCache/x", errno: ENOSPC, reason: "write: no space")
        #expect(full.recovery == nil)
        #expect(full.failure == full.description)
    }

    @Test("a place too large for any state file: resetting the state starts over")
    func resetState() throws {
        var notices: [String] = []
        let url = URL(fileURLWithPath: "/tmp/State/infinite-state.json")
        let error = try #require(throws: ListStateError.self) {
            _ = try ListStateStore.encodedToFit(StateSamples.infinite(), url: url, maximumBytes: 10, notices: &notices)
        }
        #expect(error.code == .invalidState)
        #expect(error.recovery == .resetState)
        #expect(error.message.hasSuffix("so the previous place stays (resetting the state starts over)"), "\(error)")
    }

    @Test("next on the last page: going back to the first page starts over")
    func startFromFirstPage() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, _ in
            try await client.readPages(.number(25)) { _ in }
            let error = await #expect(throws: RepositoryError.self) { try await client.readPages(.next) { _ in } }
            #expect(error?.code == .pageOutOfRange)
            #expect(error?.recovery == .startFromFirstPage)
            #expect(error?.description == "page 25 is the last page; there is no next one (going back to the first page starts over)")
        }
    }

    @Test("a mode switch against another backend's place: show a page of this backend")
    func showPageOfThisBackend() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, root in
            try ListStateStore(cacheRoot: root).save(StateSamples.paged())
            let error = try #require(throws: ListStateError.self) { try client.switchMode(to: .paged) }
            #expect(error.code == .otherBackend)
            #expect(error.recovery == .showPageOfThisBackend)
            #expect(error.message.hasSuffix("show a page of this backend to start here (showing a page keeps the file aside)"))
        }
    }

    @Test("a download refused at a link is known by a flag, not by the words of its detail")
    func refusedDownloadLink() {
        let url = URL(string: "http://127.0.0.1:9/i.jpg")
        let refused = HTTPClientError(.fileSystem, url: url, detail: "/c/.tmp is a symbolic link; refused", refusedLink: true)
        #expect(refused.reason == "cannot write the download: /c/.tmp is a symbolic link; refused")
        let words = HTTPClientError(.fileSystem, url: url, detail: "/c/.tmp: ends in; refused")
        #expect(words.reason == "cannot write the download: /c/.tmp: ends in; refused; check the folder's permissions and free space")
    }

    @Test("a cache that cannot be opened anywhere: choose another cache root")
    func cacheUnavailable() {
        let error = FeedClientError(.cacheUnavailable, failure: "cannot open a cache at /a nor at /b: denied; make a folder writable",
                                    recovery: .chooseAnotherCacheRoot)
        #expect(error.description == "cannot open a cache at /a nor at /b: denied; make a folder writable or choose another cache folder")
        let mapped = error.message(advice: { _ in " [mapped]" })
        #expect(mapped == error.failure + " [mapped]")
    }
}

/// The string literals of the library's sources, and what counts as naming the CLI.
enum LibraryText {
    /// The library's modules: everything but the CLI, the fixture backend and the C shims.
    static let modules = ["PostFeed", "PostFeedHTTP", "PostFeedCache", "PostFeedFormats", "PostFeedImaging", "PostFeedModels"]

    /// A flag (`--timeout`), or a command of the CLI (`postfeed page`, `cache verify`, `state reset`).
    static let patterns = [
        #"(^|[\s('"`(])--[a-z][a-z-]+"#,
        #"\bpostfeed (list|page|mode|browse|show|image|state|cache|serve)\b"#,
        #"\b(state (reset|show)|cache (verify|clear|prune|stats))\b"#,
    ].compactMap { try? NSRegularExpression(pattern: $0) }

    /// Another tool's command a message may quote: not this CLI's.
    static let otherTools = ["redis-cli"]

    static func namesTheCLI(_ text: String) -> Bool {
        guard !otherTools.contains(where: text.contains) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return patterns.contains { $0.firstMatch(in: text, range: range) != nil }
    }

    /// `file:line: literal` for each string literal (outside comments) that names the CLI.
    static func literalsNamingTheCLI(
        in sources: URL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    ) throws -> [String] {
        let literal = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
        var offenders: [String] = []
        var scanned = 0
        for module in modules {
            let folder = sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                scanned += 1
                let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                for (number, line) in lines.enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    let range = NSRange(line.startIndex..., in: line)
                    for match in literal.matches(in: line, range: range) {
                        guard let found = Range(match.range, in: line) else { continue }
                        let text = String(line[found])
                        if namesTheCLI(text) { offenders.append("\(module)/\(file.lastPathComponent):\(number + 1): \(text)") }
                    }
                }
            }
        }
        if scanned < 100 { offenders.append("only \(scanned) source files found under \(sources.path)") }
        return offenders
    }
}
