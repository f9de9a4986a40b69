import Foundation
import PostFeed
import PostFeedServer
import Testing

/// An image that cannot be had is named, with the true reason by status class; an image
/// URL that cannot be fetched at all gets its own line instead of silence.
@Suite("Image failure messages")
struct ImageFailureMessageTests {
    @Test(
        "error statuses say gone, not allowed, or server trouble, and name the URL",
        arguments: [
            (404, "gone"), (410, "gone"), (401, "not allowed"), (403, "not allowed"),
            (500, "server is in trouble; try again later"), (503, "server is in trouble; try again later"),
            (429, "rate-limiting"), (418, "refused"),
        ])
    func statusClasses(status: Int, says: String) async throws {
        var server = FixtureServerConfiguration()
        server.enablesTestRoutes = true
        try await FeedTestSupport.withClient(server: server) { client, running, _ in
            let post = Post(id: 1, title: "t", body: "", imageURL: "/test/status/\(status)")
            let image = try #require(await client.image(for: post))
            let error = try #require(image.error)
            #expect(error.code == .httpStatus)
            #expect(error.message.contains("HTTP \(status)") && error.message.contains(says), "\(error)")
            #expect(!error.message.contains("no such image"))
            #expect(error.description.contains("\(running.baseURL.absoluteString)/test/status/\(status)"), "\(error)")
        }
    }

    @Test(
        "an image URL that cannot be fetched is reported, not skipped",
        arguments: ["ftp://example.com/a.png", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo="])
    func unfetchable(text: String) async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let post = Post(id: 1, title: "t", body: "", imageURL: text)
            let image = try #require(await client.image(for: post), "a post naming an image must get a line")
            #expect(image.error?.code == .unsupportedURL)
            #expect(server.requestCount(pathPrefix: "/") == 0, "nothing is fetched")
        }
    }

    @Test("a malformed image URL is called malformed, not a wrong scheme; a wrong scheme still says http and https")
    func malformed() async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let bracket = try #require(await client.image(for: Post(id: 1, title: "t", body: "", imageURL: "http://[::1")))
            #expect(bracket.error?.code == .unsupportedURL)
            #expect(bracket.error?.message == "'http://[::1' is not a valid URL")
            let ftp = try #require(await client.image(for: Post(id: 2, title: "t", body: "", imageURL: "ftp://h/x.png")))
            #expect(ftp.error?.message == "'ftp://h/x.png' cannot be fetched (only http and https images are)")
            #expect(server.totalRequestCount == 0, "nothing is fetched: \(server.requestCountsByPath)")
        }
    }

    @Test("a huge image URL is cut to 200 characters with … in the messages that name it")
    func hugeURL() async throws {
        var server = FixtureServerConfiguration()
        server.enablesTestRoutes = true
        try await FeedTestSupport.withClient(server: server) { client, _, _ in
            let tail = String(repeating: "a", count: 100_000)
            let unfetchable = try #require(await client.image(for: Post(id: 1, title: "t", body: "", imageURL: "ftp://h/" + tail)))
            let unfetchableMessage = try #require(unfetchable.error?.message)
            #expect(unfetchableMessage == "'ftp://h/\(tail.prefix(191))…' cannot be fetched (only http and https images are)")

            let refused = try #require(await client.image(for: Post(id: 2, title: "t", body: "", imageURL: "/test/status/404?" + tail)))
            let error = try #require(refused.error)
            #expect(error.url?.absoluteString.count ?? 0 > 100_000, "the error keeps the whole URL")
            #expect(error.description.count < 300, "\(error.description.prefix(400))")
            #expect(error.description.contains("a…: "), "\(error.description.prefix(400))")
        }
    }

    @Test(
        "an empty or blank image URL: the post has no image URL, nothing is fetched, and the message names no address",
        arguments: ["", "  ", " \n\t"])
    func emptyImageURL(text: String) async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let post = Post(id: 1, title: "t", body: "", imageURL: text)
            let image = try #require(await client.image(for: post), "a post naming an image must get a line")
            let error = try #require(image.error)
            #expect(error.code == .noImageURL)
            #expect(image.url == nil && error.url == nil, "no address stands in for the image's")
            #expect(error.description == "the post's image URL is empty", "\(error)")
            #expect(!error.description.contains(server.baseURL.absoluteString), "not the backend's address: \(error)")
            #expect(server.totalRequestCount == 0, "nothing is fetched: \(server.requestCountsByPath)")
        }
    }

    @Test("a post without an image field has no image line")
    func noImage() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            #expect(await client.image(for: Post(id: 1, title: "t", body: "")) == nil)
        }
    }
}
