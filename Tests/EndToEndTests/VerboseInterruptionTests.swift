import Foundation
import PostFeedServer
import Testing

/// `list --verbose` stopped by Ctrl-C still ends with its summary line: while it reads
/// pages (the command handles the signal) and where no command watches for it (while it
/// resumes the saved place, before reading).
@Suite("postfeed list --verbose: the summary also on SIGINT", .serialized)
struct VerboseInterruptionTests {
    private static func summaries(_ result: PostfeedResult) -> [String] {
        result.errorLines.filter { $0.hasPrefix("postfeed: cache: ") }
    }

    @Test("SIGINT mid-list: the summary is printed once, after the interruption note, and the exit status is 130")
    func midList() async throws {
        let sandbox = try Sandbox("verbose-sigint")
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            let list = try PostfeedProcess.start(
                ["list", "--pages", "13", "--no-images", "--verbose", "--base-url", server.baseURL.absoluteString,
                 "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            let saved = await waitUntil(every: .milliseconds(10)) { FileManager.default.fileExists(atPath: sandbox.infiniteStateFile.path) }
            list.send(SIGINT)
            let run = await list.waitForExit()
            try #require(saved, "no state file appeared: \(run)")
            #expect(run.exitedNormally && run.status == 130, "\(run)")
            let summaries = Self.summaries(run)
            #expect(summaries.count == 1, "\(run)")
            #expect(summaries.first?.contains("network ") == true, "\(run)")
            #expect(run.errorLines.last?.hasPrefix("postfeed: cache: ") == true, "\(run)")
        }
    }

    @Test("SIGINT while list resumes the saved place (no command watches yet): the summary is printed before the process ends")
    func whileResuming() async throws {
        let sandbox = try Sandbox("verbose-sigint-resume")
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(1_500))) { server in
            // Given a place saved after page 2 and no cached page: resuming fetches them again.
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            try FileManager.default.removeItem(at: sandbox.pageCacheDirectory)
            let before = server.requestCount(path: "/api/posts")

            let list = try PostfeedProcess.start(
                ["list", "--no-images", "--verbose", "--base-url", server.baseURL.absoluteString,
                 "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            // The resume's first page request reached the server; its answer is 1.5 s away.
            let resuming = await waitUntil(every: .milliseconds(10)) { server.requestCount(path: "/api/posts") > before }
            list.send(SIGINT)
            let run = await list.waitForExit()
            try #require(resuming, "the resume never asked for a page: \(run)")
            #expect(run.outputLines.isEmpty, "stopped before printing any post: \(run)")
            let summaries = Self.summaries(run)
            #expect(summaries.count == 1, "\(run)")
            #expect(summaries.first?.contains("network 1 fetch") == true, "the page request under way counts: \(run)")
            // Ended by the signal itself, as without --verbose.
            let endedBySignal = (!run.exitedNormally && run.status == SIGINT) || run.status == 130
            #expect(endedBySignal, "\(run)")
        }
    }
}
