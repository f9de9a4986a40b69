import Foundation
import Logging
import PostFeed
import PostFeedServer
import Synchronization
import Testing

/// Issue 31, item 2: calls a service makes per request — page N, one post, a post's image
/// (whole or streamed from its disk entry) — each with one typed error, a `deadline:` and
/// a `logger:`. Real libcurl against the fixture backend on a loopback port.
@Suite("Stateless calls with typed errors, deadlines and per-call loggers")
struct StatelessCallTests {
    @Test("page(_:) gives page N; out of range is a typed .pageOutOfRange a route can switch on")
    func pageByNumber() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let page = try await client.page(2)
            let expected = (11...20).map { PostID($0) }
            #expect(page.posts.map(\.id) == expected)

            // `do throws(RepositoryError)`: the code is there without a cast.
            var codes: [RepositoryError.Code] = []
            for number in [0, 10_000] {
                do throws(RepositoryError) {
                    _ = try await client.page(number)
                } catch {
                    codes.append(error.code)
                }
            }
            #expect(codes == [.pageOutOfRange, .pageOutOfRange])
        }
    }

    @Test("post(id:) gives the post; an unknown id is .notFound")
    func postByID() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let post = try await client.post(id: 42)
            #expect(post.id == PostID(42))
            do throws(RepositoryError) {
                _ = try await client.post(id: 999_999)
                Issue.record("an unknown post was found")
            } catch {
                #expect(error.code == .notFound)
            }
        }
    }

    @Test("image(forPostID:) throws its typed error, and imageBody streams the same bytes from the disk entry")
    func imageAndItsStream() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            let image = try await client.image(forPostID: 42)
            #expect(image.info.width > 0)

            let body = try await client.imageBody(forPostID: 42)
            #expect(body.isStreamedFromDisk)
            #expect(body.contentType == image.info.format.mimeType)
            var streamed = Data()
            var chunks = 0
            for try await chunk in body {
                streamed.append(chunk)
                chunks += 1
            }
            #expect(streamed == image.data)
            #expect(body.length == image.data.count)
            #expect(chunks == (image.data.count + 65_535) / 65_536)

            do throws(ImagePipelineError) {
                _ = try await client.image(forPostID: 999_999)
                Issue.record("an unknown post had an image")
            } catch {
                #expect(error.code == .noImage)
            }
        }
    }

    @Test("a deadline that passes cancels the call with .deadlineExceeded")
    func deadlinePasses() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .seconds(3)))
        try await FeedTestSupport.withClient(server: slow) { client, _, _ in
            do throws(RepositoryError) {
                _ = try await client.page(1, deadline: .now + .milliseconds(200))
                Issue.record("the page came before a 3 s latency")
            } catch {
                #expect(error.code == .deadlineExceeded)
            }
            do throws(ImagePipelineError) {
                _ = try await client.image(forPostID: 7, deadline: .now + .milliseconds(200))
                Issue.record("the image came before a 3 s latency")
            } catch {
                #expect(error.code == .deadlineExceeded)
            }
        }
    }

    @Test("the call's logger gets the call's lines, with its metadata")
    func perCallLogger() async throws {
        let records = FeedClientLoggingTests.RecordingHandler.Records()
        var logger = Logger(label: "request") { _ in FeedClientLoggingTests.RecordingHandler(records: records) }
        logger[metadataKey: "request-id"] = "r-7"
        try await FeedTestSupport.withClient { client, _, _ in
            _ = try await client.page(3, logger: logger)
            do throws(RepositoryError) { _ = try await client.page(0, logger: logger) } catch {}
            _ = try? await client.post(id: 999_999, logger: logger)
        }
        let lines = records.lines.withLock { $0 }
        let asked = lines.contains { $0.message == "page 3: asked" && $0.metadata["request-id"] == "r-7" && $0.metadata["page"] == "3" }
        let answered = lines.contains { $0.message.hasPrefix("page 3: answered in ") }
        let failed = lines.contains { $0.message.hasPrefix("post 999999: failed after ") && $0.metadata["post-id"] == "999999" }
        #expect(asked, "\(lines.map(\.message))")
        #expect(answered, "\(lines.map(\.message))")
        #expect(failed, "\(lines.map(\.message))")
    }
}

/// An actor walking the pages and reading them with `readPages`: both compile and run from
/// actor isolation (issue 31: `readPages` did not compile from an actor in Swift 6).
actor PageWalker {
    var titles: [String] = []
    var pageCount = 0
    var handedOver: [Int] = []

    func walk(_ client: FeedClient) async throws {
        for try await page in client.pages() {
            pageCount += 1
            titles += page.posts.map(\.title)
        }
        // A non-Sendable closure mutating this actor's state.
        try await client.readPages(.first, count: 2) { reading in
            self.handedOver.append(reading.page)
        }
    }
}

@Suite("Pages from any isolation")
struct PagesIsolationTests {
    @Test("client.pages() and readPages run from an actor; the walk covers every post once")
    func fromAnActor() async throws {
        try await FeedTestSupport.withClient { client, server, _ in
            let walker = PageWalker()
            try await walker.walk(client)
            let total = try #require(try await client.page(1).totalCount)
            #expect(await walker.titles.count == total)
            #expect(await walker.pageCount == (total + 9) / 10)
            #expect(await walker.handedOver == [1, 2])
            _ = server
        }
    }

    @Test("pages(from:) starts at page N; a cursor backend walks by cursor")
    func fromPageNAndByCursor() async throws {
        try await FeedTestSupport.withClient { client, _, _ in
            var first: [PostID] = []
            for try await page in client.pages(from: 3) {
                first = page.posts.map(\.id)
                break
            }
            let expected = (21...30).map { PostID($0) }
            #expect(first == expected)
        }
        try await FeedTestSupport.withClient(preset: "postfeed-cursor") { client, _, _ in
            var ids: [PostID] = []
            for try await page in client.pages() { ids += page.posts.map(\.id) }
            #expect(!ids.isEmpty)
            #expect(Set(ids).count == ids.count)
        }
    }
}
