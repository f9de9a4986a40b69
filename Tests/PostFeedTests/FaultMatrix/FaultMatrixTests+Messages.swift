import Foundation
import PostFeed
import PostFeedServer
import Testing

/// The fault matrix, wording: every failure says what to do, and names the URL once. These
/// three held the defects the matrix found, disabled, until the library was fixed.
extension FaultMatrixTests {
    /// Whether `text` says what to do: a clause after the facts telling the reader to check,
    /// retry or raise something.
    static func saysWhatToDo(_ text: String) -> Bool {
        ["; check", "; try again", "; raise", "; is the server", "; go online", "Raise the limit"].contains { text.contains($0) }
    }

    @Test(
        "pages and images: a redirect chain or a redirect to file:/ftp: says what to do (check the URL or the server's redirects)")
    func redirectMessagesSayWhatToDo() async throws {
        for path in ["/test/redirect/50", Self.redirectPath(to: "file:///etc/passwd")] {
            try await FaultMatrix.withClient(configure: FaultMatrix.postsPath(path)) { client, _ in
                let page = try #require(await FaultMatrix.firstPageError(client)).description
                #expect(Self.saysWhatToDo(page), "\(page)")
                let image = try #require(try await FaultMatrix.image(client, path).error).description
                #expect(Self.saysWhatToDo(image), "\(image)")
            }
        }
    }

    @Test(
        "pages: a body that is not JSON says what to do (check the base URL and the posts path)")
    func notJSONMessageSaysWhatToDo() async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath("/test/redirect/0")) { client, _ in
            let text = try #require(await FaultMatrix.firstPageError(client)).description
            #expect(Self.saysWhatToDo(text), "\(text)")
        }
    }

    @Test(
        "images: a failed transfer names the image URL once")
    func imageMessagesNameTheURLOnce() async throws {
        try await FaultMatrix.withClient { client, server in
            for path in ["/test/reset", "/test/truncate?length=4000&sent=1000", "/test/redirect/50"] {
                let text = try #require(try await FaultMatrix.image(client, path).error).description
                let url = server.baseURL.absoluteString + path
                #expect(text.components(separatedBy: url).count - 1 == 1, "\(text)")
            }
        }
    }
}
