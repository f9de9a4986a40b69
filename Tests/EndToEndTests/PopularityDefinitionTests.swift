import Foundation
import Testing

/// One popularity definition (issue 30, item 3): missing or non-finite counts lowest, ties
/// in the backend's order, for browse's `s` and `list --sort popularity` alike.
@Suite("one popularity order for browse and list")
struct PopularityDefinitionTests {
    /// One json-server page of six posts: popularity missing, -1, 2, missing, -3, 0.5.
    private static func answer(_ target: String) -> (status: Int, contentType: String?, headers: [(String, String)], body: Data) {
        let popularity: [Int: String] = [2: "-1", 3: "2", 5: "-3", 6: "0.5"]
        let posts = (1...6).map { id in
            let field = popularity[id].map { #","popularity":\#($0)"# } ?? ""
            return #"{"id":\#(id),"title":"Post \#(id)","body":"Body \#(id)"\#(field)}"#
        }
        let page = URLComponents(string: target)?.queryItems?.first { $0.name == "_page" }?.value ?? "1"
        return (200, "application/json", [], Data((page == "1" ? "[\(posts.joined(separator: ","))]" : "[]").utf8))
    }

    /// Most popular first; the two without one last, in the backend's order.
    private static let expected = [3, 6, 2, 5, 1, 4]

    @Test("posts without popularity come last below negative ones, in browse's s and in list --sort popularity")
    func missingIsLowest() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(answering: Self.answer) { server in
            let backend = ["--base-url", server.baseURL, "--api", "json-server"]

            let list = try await sandbox.run(["list", "--sort", "popularity", "--no-images"] + backend)
            #expect(list.succeeded, "\(list)")
            #expect(PrintedList(list.standardOutput).positions == Self.expected, "\(list)")

            let browse = try await sandbox.run(
                ["browse", "--rows", "6", "--images", "none"] + backend, standardInput: Data("sbbbq".utf8))
            #expect(browse.succeeded, "\(browse)")
            // s keeps post #1 on top (it ranks 5th now); b goes back to the top of the order.
            let frame = browse.standardOutput.components(separatedBy: "PostFeed · ").last ?? ""
            #expect(PrintedList(frame).positions == Self.expected, "\(frame)")
        }
    }
}
