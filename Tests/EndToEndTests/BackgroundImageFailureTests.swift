import Foundation
import PostFeedServer
import Testing

/// Images still loading when a page's text went out finish in the background; those that
/// fail there are summed up in one line on stderr at the end, grouped by reason, and none
/// waits or retries past what `--timeout` allows one request.
@Suite("postfeed with images that fail in the background")
struct BackgroundImageFailureTests {
    /// Page 1's posts that have an image (post 5 has none).
    static let imagesOnPageOne = 19

    /// A server over a fixture copy whose images are all `/test/…` routes built by `route`
    /// from the image's own path (so every image keeps its own URL).
    private func withImagesAt<T>(
        _ route: @escaping (String) -> String, _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        let fixtures = try FixtureCopy()
        try fixtures.rewriteImageURLs { route($0) }
        var configuration = fixtures.configuration()
        configuration.enablesTestRoutes = true
        return try await RunningFixtureServer.withRunning(configuration, body)
    }

    /// The verbose log's retries (it names every one).
    private func retries(_ run: PostfeedResult) -> [String] {
        run.errorLines.filter { $0.contains("retrying after") }
    }

    private func summaryLines(_ run: PostfeedResult) -> [String] {
        run.errorLines.filter { $0.contains("could not be fetched") }
    }

    @Test("every image rate-limited with a Retry-After past --timeout: no wait, one try each, one line saying why")
    func rateLimitedImagesAreSummedUp() async throws {
        let sandbox = try Sandbox()
        // Given every image answering 429 with Retry-After: 30
        try await withImagesAt({ "/test/status/429?retryAfter=30&image=\($0)" }) { server in
            // When list prints at once (every image goes on in the background) with --timeout 10
            let run = try await sandbox.run(["list", "--verbose", "--image-wait", "0", "--timeout", "10"], against: server)

            // Then no image waited 30 s for a retry that --timeout does not leave room for:
            // none was retried
            #expect(run.succeeded, "\(run)")
            #expect(retries(run).isEmpty, "\(retries(run).count) retries: \(run)")
            // and one line at the end names how many failed and why
            let summary = summaryLines(run)
            #expect(summary.count == 1, "\(run)")
            let line = try #require(summary.first, "\(run)")
            #expect(line.contains("\(Self.imagesOnPageOne) images could not be fetched"), "\(line)")
            #expect(line.contains("HTTP 429") && line.contains("Retry-After 30"), "\(line)")
            #expect(line.contains("the next run tries again"), "\(line)")
            // naming the host and the first image that failed
            let host = "\(server.baseURL.host ?? "?"):\(server.baseURL.port ?? 0)"
            #expect(line.contains("images could not be fetched from \(host) (the first \(server.baseURL.absoluteString)/test/status/429?"), "\(line)")
        }
    }

    @Test("one image failing: the line names its URL")
    func oneFailingImageIsNamed() async throws {
        let sandbox = try Sandbox()
        // Given one image on page 1 answering 503, the others served
        try await withImagesAt({ $0.hasSuffix("/img-002.jpg") ? "/test/status/503?image=\($0)" : $0 }) { server in
            let run = try await sandbox.run(["list", "--image-wait", "0"], against: server)

            #expect(run.succeeded, "\(run)")
            let summary = summaryLines(run)
            #expect(summary.count == 1, "\(run)")
            let line = try #require(summary.first, "\(run)")
            let url = "\(server.baseURL.absoluteString)/test/status/503?image=/images/img-002.jpg"
            #expect(line == "postfeed: 1 image could not be fetched (\(url)), the next run tries again: HTTP 503: the server is in trouble", "\(line)")
        }
    }

    @Test("images that never answer: --timeout bounds each with its retries, one line says so")
    func silentImagesAreSummedUp() async throws {
        let sandbox = try Sandbox()
        // Given images that answer after 10 minutes
        try await withImagesAt({ "/test/delay/600000?image=\($0)" }) { server in
            // When list runs with --timeout 2 and prints at once
            let run = try await sandbox.run(["list", "--verbose", "--image-wait", "0", "--timeout", "2"], against: server)

            // Then no image was retried: its 2 s were used up (a connection reused from page 1
            // once made this a "connect" timeout, retried twice more)
            #expect(run.succeeded, "\(run)")
            #expect(retries(run).isEmpty, "\(retries(run).count) retries: \(run)")
            // and one line names the timeout

            let summary = summaryLines(run)
            #expect(summary.count == 1, "\(run)")
            let line = try #require(summary.first, "\(run)")
            #expect(line.contains("\(Self.imagesOnPageOne) images could not be fetched"), "\(line)")
            #expect(line.contains("total timeout reached"), "\(line)")
        }
    }

    @Test("all images arrive: no summary line")
    func noLineWhenAllArrive() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["list", "--image-wait", "0"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(summaryLines(run).isEmpty, "\(run)")
        }
    }
}
