import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Image URLs a crafted backend sends: one that is no URL at all is called malformed (not
/// a wrong scheme), and a huge one is cut in the lines that name it.
@Suite("postfeed with malformed and huge image URLs")
struct MalformedImageURLTests {
    private static func hasID(_ id: PostID) -> (PrintedList.Entry) -> Bool {
        { $0.id == id }
    }

    @Test("list and show: a malformed image URL is called malformed; a 100 KB one is cut in the line")
    func imageURLs() async throws {
        // Given post 1 with an image URL that is no URL, post 2 with a 100 KB one
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.setImageURL("http://[::1", ofPost: 1)
        try fixtures.setImageURL("/images/" + String(repeating: "a", count: 100_000) + ".jpg", ofPost: 2)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            // When
            let run = try await sandbox.run(["list", "--pages", "1", "--image-wait", "30"], against: server)

            // Then: post 1's image is a malformed URL, not a wrong scheme
            #expect(run.succeeded, "\(run)")
            let printed = PrintedList(run.standardOutput)
            let firstEntry = printed.entries.first(where: Self.hasID(1))
            let first = try #require(firstEntry?.imageLine, "\(run)")
            #expect(first == "image unavailable: 'http://[::1' is not a valid URL", "\(first)")
            // Then: post 2's line names the URL cut short, not 100 KB of it
            let secondEntry = printed.entries.first(where: Self.hasID(2))
            let second = try #require(secondEntry?.imageLine, "\(run)")
            #expect(second.hasPrefix("image unavailable: \(server.baseURL.absoluteString)/images/aaaa"), "\(second.prefix(300))")
            #expect(second.contains("a…: "), "\(second.prefix(300))")
            #expect(second.count < 400, "\(second.count) characters: \(second.prefix(300))")
            #expect(run.standardOutput.count < 20_000, "\(run.standardOutput.count) bytes of output")

            // Then: show names the cut URL too
            let show = try await sandbox.run(["show", "2"], against: server)
            let imageLines = show.outputLines.filter { $0.contains("/images/aaaa") }
            #expect(!imageLines.isEmpty, "\(show.standardOutput.prefix(2000))")
            for line in imageLines {
                #expect(line.count < 400 && line.contains("…"), "\(line.prefix(300))")
            }
        }
    }
}
