import Foundation
import PostFeedServer
import Testing

/// Issue 18: `--verbose` ends a run with one line adding up the library's swift-metrics
/// counters (the CLI's own in-process `MetricsFactory`); the normal output is unchanged.
@Suite("postfeed --verbose: the cache counters summed up at exit")
struct VerboseSummaryTests {
    private static func withoutSources(_ output: String) -> String {
        output.replacingOccurrences(of: " (memory)", with: "").replacingOccurrences(of: " (disk)", with: "")
    }

    private static func summary(_ result: PostfeedResult) -> String? {
        result.errorLines.last { $0.hasPrefix("postfeed: cache: ") }
    }

    @Test("a cold run counts every request the server saw as a network fetch; a warm run counts disk and memory hits and no fetch")
    func summary() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given an empty cache: page 1, its images, then the prefetched page 2 and its images.
            let cold = try await sandbox.run(["page", "1", "--verbose"], against: server)
            try #require(cold.succeeded, "\(cold)")
            let requests = server.recordedRequests.count
            #expect(requests > 1)
            let coldLine = try #require(Self.summary(cold), "\(cold)")
            // (A load can find on disk what a prefetch of the same image stored a moment before.)
            #expect(coldLine.hasPrefix("postfeed: cache: memory 0 hits, disk "), "\(coldLine)")
            #expect(coldLine.contains(", network \(requests) fetches"), "\(coldLine)")
            #expect(cold.errorLines.last == coldLine)

            // When the same page is shown again, without and with --verbose.
            server.resetRequestCounts()
            let quiet = try await sandbox.run(["page", "1"], against: server)
            let warm = try await sandbox.run(["page", "1", "--verbose"], against: server)
            try #require(quiet.succeeded && warm.succeeded, "\(quiet)\n\(warm)")

            // Then nothing was fetched, the summary says so, and standard output is the same.
            #expect(server.recordedRequests.isEmpty)
            let warmLine = try #require(Self.summary(warm), "\(warm)")
            #expect(warmLine.contains("network 0 fetches"), "\(warmLine)")
            let diskHits = warmLine.firstMatch(of: /disk (\d+) hits?/).flatMap { Int($0.1) }
            #expect((diskHits ?? 0) > 0, "\(warmLine)")
            // Whether an image line says (memory) or (disk) depends on the prefetch's timing,
            // not on --verbose.
            #expect(Self.withoutSources(warm.standardOutput) == Self.withoutSources(quiet.standardOutput),
                    "\(quiet.standardOutput)\n---\n\(warm.standardOutput)")
            #expect(!quiet.standardError.contains("cache:"), "\(quiet)")
            #expect(!warm.standardOutput.contains("cache:"))
        }
    }
}
