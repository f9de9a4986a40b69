import Foundation
import PostFeedServer
import Testing

/// Issue 29's wording: each failure says what is wrong in one line, in the words of the
/// options the user typed (not the library's fields), and a usage error exits 64.
@Suite("one-line messages in the user's words")
struct OneLineMessageTests {
    /// One usage error: the arguments, what its line must say, and what it must not.
    struct UsageCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let says: String
        var neverSays: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["list", "--page-size", "0"], says: "--page-size 0 is out of range"),
        UsageCase(arguments: ["list", "--page-size", "abc"], says: "--page-size 'abc' is not valid", neverSays: "Help:"),
        UsageCase(arguments: ["browse", "--images", "foo"], says: "--images 'foo' is not valid; use one of auto, kitty", neverSays: "Help:"),
        UsageCase(arguments: ["image", "42", "--output", ""], says: "--output is empty"),
        UsageCase(arguments: ["list", "--backend", "missing-backend.json"], says: "--backend missing-backend.json: no such file"),
        UsageCase(arguments: ["list", "extra-arg"], says: "list takes no arguments, got 'extra-arg'", neverSays: "command"),
        UsageCase(arguments: ["serve", "--latency-ms", "-5"], says: "--latency-ms -5 is negative", neverSays: "latencyJitter"),
        UsageCase(
            arguments: ["serve", "--fixtures", "/nonexistent"], says: "--fixtures /nonexistent is not a folder",
            neverSays: "FixtureServerConfiguration"),
        UsageCase(arguments: ["list", "--shared-cache", ""], says: "--shared-cache is empty"),
    ]

    @Test("a usage error: one line (and where help is), exit 64", arguments: usageCases)
    func usageError(_ usage: UsageCase) async throws {
        let sandbox = try Sandbox()

        let run = try await PostfeedProcess.run(usage.arguments, in: sandbox.directory)

        #expect(run.status == 64, "\(run)")
        let lines = run.errorLines
        #expect(lines.count <= 2, "\(run)")
        let first = lines.first ?? ""
        #expect(first.hasPrefix("Error: "), "\(run)")
        #expect(first.contains(usage.says), "\(run)")
        if let never = usage.neverSays {
            #expect(!run.standardError.contains(never), "\(run)")
        }
        if lines.count == 2 {
            #expect(lines[1].hasPrefix("See 'postfeed"), "\(run)")
        }
        #expect(run.standardOutput.isEmpty, "\(run)")
    }

    @Test("20,000 response headers are called too large, not a body cut short")
    func hugeHeaders() async throws {
        let sandbox = try Sandbox()
        let headers = (0..<20_000).map { ("X-Filler-\($0)", "value") }
        try await CannedHTTPServer.withRunning(body: Data("[]".utf8), contentType: "application/json", headers: headers) { server in
            let run = try await sandbox.run(["list", "--base-url", server.baseURL, "--api", "json-server"])

            #expect(run.failed, "\(run)")
            let line = try #require(run.errorMessage, "\(run)")
            #expect(line.contains("the response headers are too large"), "\(line)")
            #expect(!line.contains("before the body was complete"), "\(line)")
            #expect(run.errorLines.count == 1, "\(run)")
        }
    }

    @Test("a Redis that does not answer: it timed out after 50 ms, not 'Resource temporarily unavailable'")
    func redisTimeout() async throws {
        let sandbox = try Sandbox()
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        redis.pause()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["list", "--no-images", "--shared-cache", redis.url], against: server)

            #expect(run.succeeded, "\(run)")
            let found = run.errorLines.first { $0.contains("shared cache") }
            let warning = try #require(found, "\(run)")
            #expect(warning.contains("timed out after 50 ms"), "\(warning)")
            #expect(!warning.contains("Resource temporarily unavailable"), "\(warning)")
        }
    }

    @Test(
        "cache stats on a read-only cache: every warning starts with postfeed:",
        .enabled(if: ScratchFileSystem.isAvailable, "no tmpfs can be mounted here (unshare -rm)"))
    func cacheStatsWarningsArePrefixed() async throws {
        let sandbox = try Sandbox()
        let disk = try ScratchFileSystem(size: 4 << 20, mountPoint: sandbox.directory.appendingPathComponent("disk"))
        defer { disk.close() }
        let cacheRoot = disk.root.appendingPathComponent("cache", isDirectory: true)
        try await withFixtureServer { server in
            let list = try await PostfeedProcess.run(
                ["list", "--no-images", "--base-url", server.baseURL.absoluteString, "--cache-dir", cacheRoot.path],
                in: sandbox.directory)
            try #require(list.succeeded, "\(list)")
        }
        for layer in ["ImageCache", "PageCache", "ThumbnailCache"] {
            try FileManager.default.createDirectory(at: cacheRoot.appendingPathComponent(layer), withIntermediateDirectories: true)
        }
        try disk.makeReadOnly()

        let stats = try await PostfeedProcess.run(["cache", "stats", "--cache-dir", cacheRoot.path], in: sandbox.directory)

        let warnings = stats.errorLines.filter { $0.contains("warning") }
        #expect(!warnings.isEmpty, "a read-only cache is worth a warning: \(stats)")
        for line in warnings {
            #expect(line.hasPrefix("postfeed: warning: "), "\(line)")
        }
    }

    @Test("a newline in an --output path is printed escaped, on one line")
    func controlCharactersInOutputPath() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // A folder that does not exist: the error names the path
            let missing = try await sandbox.run(["image", "1", "--output", "new\nfolder/x.jpg"], against: server)
            #expect(missing.failed, "\(missing)")
            #expect(missing.errorLines.count == 1, "\(missing)")
            #expect(missing.standardError.contains("new\\nfolder/x.jpg"), "\(missing)")

            // Written: the summary names it
            let written = try await sandbox.run(["image", "1", "--output", "odd\nname.jpg"], against: server)
            #expect(written.succeeded, "\(written)")
            let all = written.standardOutput + written.standardError
            #expect(all.contains("odd\\nname.jpg"), "\(written)")
            #expect(!all.contains("odd\nname.jpg"), "\(written)")
            #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("odd\nname.jpg").path))
        }
    }
}
