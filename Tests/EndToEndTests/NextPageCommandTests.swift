import Foundation
import PostFeedServer
import Testing

/// Issue 16's latency budget for numbered pages, through the CLI: `page N+1` after
/// `page N` makes no request for the page or its images.
@Suite("postfeed page, then the next page")
struct NextPageCommandTests {
    @Test("page 3 then page --next: page 4 and its images come from the caches, not the server")
    func nextPageMakesNoRequest() async throws {
        let sandbox = try Sandbox()
        // Given: page 3 read from a server 300 ms away, so its prefetches are still under
        // way when the page is printed
        let port = try await withFixtureServer(faults: FaultInjection(latency: .milliseconds(300))) { server in
            let third = try await sandbox.run(["page", "3"], against: server)
            #expect(third.succeeded, "\(third)")
            return server.port
        }
        try await withFixtureServer(port: port) { server in
            // When: the same backend, then page --next
            let fourth = try await sandbox.run(["page", "--next"], against: server)

            // Then: page 4 printed with its images, and nothing asked for it
            #expect(fourth.succeeded, "\(fourth)")
            #expect(fourth.outputLines.first == "Page 4 of 13", "\(fourth)")
            let printed = PrintedList(fourth.standardOutput)
            #expect(printed.ids == Array(61...80), "\(fourth)")
            #expect(!printed.imageLines.isEmpty)
            let pageFourImages = try Self.imagePaths(of: 61...80)
            #expect(pageFourImages.count > 10)
            let forPageFour = server.recordedRequests.filter { request in
                (request.path == "/api/posts" && request.query?.contains("page=4&") == true)
                    || pageFourImages.contains(request.path)
            }
            #expect(forPageFour.isEmpty, "\(forPageFour.map { "\($0.path)?\($0.query ?? "")" })")
        }
    }

    /// The image paths the fixture posts `ids` name (`/images/img-061.jpg` …).
    private static func imagePaths(of ids: ClosedRange<Int>) throws -> Set<String> {
        let data = try Data(contentsOf: FixtureLocator.fixturesDirectory().appendingPathComponent("posts.json"))
        guard let posts = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return Set(posts.compactMap { post -> String? in
            guard let id = post["id"] as? Int, ids.contains(id) else { return nil }
            return post["imageUrl"] as? String
        })
    }
}
