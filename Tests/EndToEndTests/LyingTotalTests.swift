import Foundation
import Testing

/// A backend whose total counts more posts than it has (json-server's `X-Total-Count: 60`
/// over 40 posts): `page --last` asked for page 6, found it empty and failed ("page 6 is
/// past the end (it is empty)"), a page the reader never asked for.
@Suite("postfeed page --last when the server's total is too high")
struct LyingTotalTests {
    /// json-server pages of 10 over posts 1–40, each saying there are 60.
    private static func answer(_ target: String) -> (status: Int, contentType: String?, headers: [(String, String)], body: Data) {
        let items = URLComponents(string: target)?.queryItems ?? []
        let page = items.first { $0.name == "_page" }.flatMap { $0.value }.flatMap { Int($0) } ?? 1
        let limit = items.first { $0.name == "_limit" }.flatMap { $0.value }.flatMap { Int($0) } ?? 10
        let first = (page - 1) * limit + 1
        let ids: [Int] = first <= 40 ? Array(first...min(40, first + limit - 1)) : []
        let posts = ids.map { #"{"userId":1,"id":\#($0),"title":"Post \#($0)","body":"Body of post \#($0)"}"# }
        return (200, "application/json", [("X-Total-Count", "60")], Data("[\(posts.joined(separator: ","))]".utf8))
    }

    @Test("page --last shows the last page with posts and says the total is too high")
    func lastPageWithPosts() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(answering: Self.answer) { server in
            let run = try await sandbox.run([
                "page", "--last", "--no-images", "--base-url", server.baseURL, "--api", "json-server", "--page-size", "10",
            ])
            #expect(run.succeeded, "\(run)")
            #expect(run.standardOutput.hasPrefix("Page 4"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("Post 40") && !run.standardOutput.contains("Post 30\n"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("— last page —"), "\(run.standardOutput)")
            #expect(run.standardError.contains("the server counts 6 pages (60 posts), but page 5 has no posts: page 4 is the last one with posts"),
                    "\(run.standardError)")
            // The place is page 4: the next run's `page` shows it again.
            let again = try await sandbox.run(["page", "--no-images", "--base-url", server.baseURL, "--api", "json-server", "--page-size", "10"])
            #expect(again.standardOutput.hasPrefix("Page 4"), "\(again)")
        }
    }
}
