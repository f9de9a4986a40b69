import Foundation
import PostFeedServer
import Testing

/// Issue 29 item 5: a command that exits starts no transfer it throws away. The next
/// page's prefetch (and its images) either finishes and is stored, or is not started.
@Suite("list: no prefetch thrown away at exit")
struct ExitPrefetchTests {
    @Test("list --verbose against a slow server cancels no transfer; the next list fetches nothing the first started")
    func listCancelsNoTransfer() async throws {
        let sandbox = try Sandbox()
        // Given: a server 300 ms away, so the next page's prefetches are under way when
        // page 1 is printed
        try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            // When: list --verbose, page 1
            let first = try await sandbox.run(["list", "--verbose", "--timeout", "20"], against: server)

            // Then: no transfer was cancelled, and every request started also finished
            #expect(first.succeeded, "\(first)")
            let cancelledLines = first.standardError.split(separator: "\n").filter { $0.contains("cancelled running transfer") }
            #expect(cancelledLines.isEmpty, "\(cancelledLines)")
            let counts = try #require(Self.requestCounts(first.standardError), "\(first.standardError)")
            #expect(counts.started > 0)
            #expect(counts.started == counts.finished, "\(counts)")
            #expect(counts.cancelled == 0, "\(counts)")
            let firstRunImages = Set(server.recordedRequests.map(\.path).filter { $0.hasPrefix("/images/") })
            #expect(!firstRunImages.isEmpty)
            server.resetRequestCounts()

            // When: the next list (page 2, which the first run prefetched)
            let second = try await sandbox.run(["list"], against: server)

            // Then: no image the first run asked for is asked for again
            #expect(second.succeeded, "\(second)")
            let again = server.recordedRequests.map(\.path).filter { firstRunImages.contains($0) }
            #expect(again.isEmpty, "\(again)")
        }
    }

    /// `requests N started, N finished, N cancelled` from `--verbose`'s summary line.
    static func requestCounts(_ standardError: String) -> (started: Int, finished: Int, cancelled: Int)? {
        guard let line = standardError.split(separator: "\n").last(where: { $0.contains("postfeed: cache:") }),
            let range = line.range(of: "requests ")
        else { return nil }
        let words = line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," })
        guard words.count >= 6, let started = Int(words[0]), words[1] == "started", let finished = Int(words[2]),
            words[3] == "finished", let cancelled = Int(words[4]), words[5] == "cancelled"
        else { return nil }
        return (started, finished, cancelled)
    }
}
