import Foundation
import PostFeedServer
import Testing

/// A page's text waits for its images at most `--image-wait` seconds (default 2): a slow
/// image is shown as still loading, finishes in the background before the process exits,
/// and is in the cache for the next run.
@Suite("--image-wait")
struct ImageWaitTests {
    /// Post 1's image, the first of page 1.
    static let slowImagePath = "/images/img-001.jpg"

    /// A server sending post 1's image (46 KB) at `bytesPerSecond`, everything else at once.
    private func withSlowImageServer<T>(
        bytesPerSecond: Int, _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        try await withFixtureServer(faults: FaultInjection(bandwidthLimits: [Self.slowImagePath: bytesPerSecond]), body)
    }

    private func imageRequests(_ server: RunningFixtureServer) -> Int {
        server.recordedRequests.filter { $0.path == Self.slowImagePath }.count
    }

    /// Post 1's image line in `output`: the line after its meta line.
    private func firstPostImageLine(_ output: String) -> String? {
        let lines = output.split(separator: "\n").map(String.init)
        guard let title = lines.firstIndex(where: { $0.hasPrefix("   1. ") }) else { return nil }
        return lines.dropFirst(title + 1).prefix(2).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("image") }
    }

    @Test("list prints the page within the default 2 s image wait while one image crawls; it is cached for the next run")
    func listDoesNotWaitForASlowImage() async throws {
        let sandbox = try Sandbox()
        // Given post 1's image at 4 KiB/s: about 11 s
        try await withSlowImageServer(bytesPerSecond: 4_096) { server in
            // When `list` runs with the default image wait (2 s)
            let clock = ContinuousClock()
            let started = clock.now
            let list = try PostfeedProcess.start(
                ["list", "--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            let endLine = await list.waitForOutputLine { $0.contains("posts loaded") }
            let printedAfter = clock.now - started
            let run = await list.waitForExit()
            let exitedAfter = clock.now - started

            // Then the page is out after the wait and a margin for start-up and page 1 (a
            // generous one: the machine may be busy with other tests), long before the image
            #expect(endLine != nil, "\(run)")
            #expect(printedAfter < .seconds(6), "the page took \(printedAfter): \(run)")
            #expect(run.succeeded, "\(run)")
            // with post 1's image shown as still loading, the others as they came
            let imageLine = try #require(firstPostImageLine(run.standardOutput), "\(run)")
            #expect(imageLine.contains("still loading"), "\(imageLine)")
            let printsImageLine = run.outputLines.contains { $0.contains("image ") && $0.contains("×") }
            #expect(printsImageLine, "\(run)")
            // and the process stayed until the image was in, one line on stderr saying so
            #expect(exitedAfter > .seconds(9), "exited after \(exitedAfter): \(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            #expect(run.errorLines.first?.contains(/finishing \d+ images? in the background/) == true, "\(run)")
            #expect(imageRequests(server) == 1)

            // When the next run shows page 1 again
            let again = try await sandbox.run(["list", "--restart", "--image-wait", "1"], against: server)

            // Then the image comes from the cache: its size is printed, no request was made
            #expect(again.succeeded, "\(again)")
            let cachedLine = try #require(firstPostImageLine(again.standardOutput), "\(again)")
            #expect(cachedLine.contains("×") && cachedLine.contains("jpeg"), "\(cachedLine)")
            #expect(imageRequests(server) == 1, "\(again)")
        }
    }

    @Test("page prints within --image-wait too, and --json marks the late image as loading")
    func pageAndJSON() async throws {
        let sandbox = try Sandbox()
        try await withSlowImageServer(bytesPerSecond: 4_096) { server in
            let clock = ContinuousClock()
            let started = clock.now
            let page = try PostfeedProcess.start(
                ["page", "1", "--json", "--image-wait", "0.5", "--base-url", server.baseURL.absoluteString,
                 "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            let firstLine = await page.waitForOutputLine { !$0.isEmpty }
            let printedAfter = clock.now - started
            let run = await page.waitForExit()

            #expect(firstLine != nil, "\(run)")
            #expect(printedAfter < .seconds(5), "the page took \(printedAfter): \(run)")
            #expect(run.succeeded, "\(run)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run)")
            let posts = try #require(json["posts"] as? [[String: Any]])
            let image = try #require(posts.first?["image"] as? [String: Any], "\(run)")
            #expect(image["loading"] as? Bool == true, "\(image)")
            #expect((image["url"] as? String)?.hasSuffix(Self.slowImagePath) == true, "\(image)")
            #expect(image["width"] == nil)
        }
    }

    @Test("Ctrl-C while late images finish leaves at once, with the place saved")
    func interruptingTheBackgroundWait() async throws {
        let sandbox = try Sandbox()
        // Given post 1's image at 1 KiB/s: about 45 s
        try await withSlowImageServer(bytesPerSecond: 1_024) { server in
            let list = try PostfeedProcess.start(
                ["list", "--image-wait", "0.5", "--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path],
                in: sandbox.directory)
            let endLine = await list.waitForOutputLine { $0.contains("posts loaded") }
            try? await Task.sleep(for: .milliseconds(300))

            // When the reader presses Ctrl-C while the image still loads
            let clock = ContinuousClock()
            let interrupted = clock.now
            list.send(SIGINT)
            let run = await list.waitForExit()
            let exitedAfter = clock.now - interrupted

            // Then it leaves at once, as interrupted, with the place after page 1 saved
            #expect(endLine != nil, "\(run)")
            #expect(exitedAfter < .seconds(3), "exit took \(exitedAfter): \(run)")
            #expect(run.exitedNormally && run.status == 130, "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.loadedPostIDs.count == 20, "\(run)")
        }
    }

    @Test("an image wait that is no number of seconds is refused", arguments: [["--image-wait", "-1"], ["--image-wait", "nan"], ["--image-wait", "1e300"]])
    func badValues(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let run = try await sandbox.run(["list"] + arguments)
        #expect(run.exitedNormally && run.status == 64, "\(run)")
        #expect(run.errorMessage?.contains("--image-wait") == true, "\(run)")
    }
}
