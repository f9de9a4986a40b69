import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Images on a host whose name does not resolve: each fails at once naming the host, and
/// none is tried again (a name that did not resolve does not resolve a moment later).
@Suite("postfeed with an image host that does not resolve")
struct UnresolvableImageHostTests {
    @Test("list: each image says its host did not resolve, nothing is retried, and the run ends in seconds")
    func listDoesNotRetryImages() async throws {
        // Given posts whose images are on a host under .invalid (RFC 6761: never resolves)
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.rewriteImageURLs { "http://no-such-host.invalid" + $0 }
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            // When (the image wait is long so the page shows each image's outcome)
            let clock = ContinuousClock()
            let started = clock.now
            let run = try await sandbox.run(["list", "--verbose", "--image-wait", "60"], against: server)
            let elapsed = clock.now - started

            // Then: no request was tried again (the verbose log names every retry)
            #expect(run.succeeded, "\(run)")
            let retries = run.errorLines.filter { $0.contains("retrying after") }
            #expect(retries.isEmpty, "\(retries.count) retries: \(run)")
            // Then: each image line names the host and says it did not resolve
            let printed = PrintedList(run.standardOutput)
            let withImage = printed.entries.filter { !FixtureFacts.postsWithoutImage.contains($0.id?.integerValue ?? 0) }
            #expect(withImage.count >= 19, "\(run)")
            for entry in withImage {
                let line = entry.imageLine ?? "no image line"
                #expect(line.contains("no-such-host.invalid did not resolve"), "post \(entry.position): \(line)")
            }
            // Then: the run does not linger: three attempts each took ~10 s in all, one
            // takes well under a second (a check that nothing waits, not a benchmark)
            #expect(elapsed < .seconds(4), "took \(elapsed): \(run)")
        }
    }
}
