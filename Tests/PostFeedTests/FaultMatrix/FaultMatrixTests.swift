import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

/// Issue 15's fault matrix (README, "Fault matrix"): one test per case, pages and images
/// apart, each against the fixture server on 127.0.0.1 — its `/test/…` routes, its fault
/// injection and its pagination quirks — through the library as users call it
/// (`client.repository.page(…)`, the feeds, `client.readPages`, `client.image(for:)`).
///
/// Each row asserts what a user must get: the error's code, one line naming the URL (and
/// the page) and saying what to do, nothing cached from a failed body — or, when a cached
/// copy exists, that copy served stale with its reason.
///
/// This file: transport faults. `FaultMatrixTests+Pagination.swift`: pagination.
@Suite("Fault matrix")
struct FaultMatrixTests {
    // MARK: Timeouts

    @Test("pages: a server slower than --timeout fails at the deadline, naming the URL, page 1 and the timeout")
    func pageTimeout() async throws {
        try await FaultMatrix.withClient(configure: {
            FaultMatrix.postsPath("/test/delay/4000")(&$0)
            $0.limitRequests(toSeconds: 1)
        }) { client, server in
            let (error, elapsed) = await FaultMatrix.timed { await FaultMatrix.firstPageError(client) }
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: "/test/delay/4000",
                says: ["total timeout reached", "allow more time"])
            #expect(error?.underlying?.timeout == .total)
            #expect(error?.recovery == .allowMoreTime)
            #expect(elapsed < .seconds(3), "the 1 s deadline held for \(elapsed); the server answers after 4 s")
        }
    }

    @Test("images: a server slower than --timeout fails at the deadline, naming the image URL and the timeout")
    func imageTimeout() async throws {
        try await FaultMatrix.withClient(configure: { $0.limitRequests(toSeconds: 1) }) { client, server in
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, "/test/delay/4000") }
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: "/test/delay/4000",
                says: ["total timeout reached", "allow more time"])
            #expect(image.error?.underlying?.timeout == .total)
            #expect(image.error?.recovery == .allowMoreTime)
            #expect(elapsed < .seconds(3), "the 1 s deadline held for \(elapsed); the server answers after 4 s")
        }
    }

    // MARK: Stalls

    /// The stall limit of the stall rows; they allow it 2 s more on a loaded machine, still
    /// short of the 4 s the server holds a stalled body.
    static let stallLimit: Duration = .seconds(1)

    static func stallLimits(_ configuration: inout FeedClient.Configuration) {
        configuration.http.timeouts = HTTPTimeouts(connect: .seconds(2), total: .seconds(10), stall: stallLimit)
    }

    @Test("pages: a body that stops mid-way fails at the stall limit, naming the URL and page 1")
    func pageStall() async throws {
        try await FaultMatrix.withClient(configure: {
            FaultMatrix.postsPath("/test/stall?ms=4000")(&$0)
            Self.stallLimits(&$0)
        }) { client, server in
            let (error, elapsed) = await FaultMatrix.timed { await FaultMatrix.firstPageError(client) }
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: "/test/stall?ms=4000",
                says: ["stall timeout reached", "the server stopped sending", "does not lengthen"])
            #expect(error?.underlying?.timeout == .stall)
            #expect(error?.recovery == .checkStalledServer)
            #expect(elapsed < Self.stallLimit + .seconds(2), "a 1 s stall limit fired after \(elapsed); the server is silent for 4 s")
        }
    }

    @Test("images: a body that stops mid-way fails at the stall limit, naming the image URL")
    func imageStall() async throws {
        try await FaultMatrix.withClient(configure: Self.stallLimits) { client, server in
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, "/test/stall?ms=4000") }
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: "/test/stall?ms=4000",
                says: ["stall timeout reached", "the server stopped sending", "does not lengthen"])
            #expect(image.error?.underlying?.timeout == .stall)
            #expect(image.error?.recovery == .checkStalledServer)
            #expect(elapsed < Self.stallLimit + .seconds(2), "a 1 s stall limit fired after \(elapsed); the server is silent for 4 s")
        }
    }

    /// The first request of each path stalls (the server holds it 4 s), later ones are served.
    static let stallOnce = FaultInjection(
        stallDuration: .seconds(4), failFirst: 1, failFirstFault: .stalledBody, failFirstScope: .eachPath)

    @Test("pages: a stalled GET is retried like a reset, and the page loads")
    func pageStallRetried() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.stallOnce), configure: {
            Self.stallLimits(&$0)
            $0.http.retryPolicy = FaultMatrix.twoAttempts
        }) { client, server in
            let (page, elapsed) = try await FaultMatrix.timed { try await client.repository.page(.number(1)) }
            #expect(page.posts.map(\.id) == Array(1...10))
            #expect(page.staleReason == nil)
            #expect(server.requestCount(path: "/api/posts") == 2)
            #expect(elapsed < Self.stallLimit + .seconds(2), "\(elapsed); the stalled attempt is held 4 s")
        }
    }

    @Test("images: a stalled GET is retried like a reset, and the image loads")
    func imageStallRetried() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.stallOnce), configure: {
            Self.stallLimits(&$0)
            $0.http.retryPolicy = FaultMatrix.twoAttempts
        }) { client, server in
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, "/images/img-001.jpg") }
            #expect(image.error == nil, "\(String(describing: image.error))")
            #expect(image.response?.source == .network)
            #expect(server.requestCount(path: "/images/img-001.jpg") == 2)
            #expect(elapsed < Self.stallLimit + .seconds(2), "\(elapsed); the stalled attempt is held 4 s")
        }
    }

    // MARK: Slow headers

    /// Every response's headers come 1.5 s late.
    static let slowHeaders = FaultInjection(latency: .milliseconds(1_500))

    @Test("pages: headers 1.5 s late, within --timeout 4: the page loads, nothing cuts it short")
    func pageSlowHeaders() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.slowHeaders), configure: { $0.limitRequests(toSeconds: 4) }) {
            client, _ in
            let (page, elapsed) = try await FaultMatrix.timed { try await client.repository.page(.number(1)) }
            #expect(page.posts.count == 10)
            #expect(elapsed >= .milliseconds(1_400))
        }
    }

    @Test("images: headers 1.5 s late, within --timeout 4: the image loads, nothing cuts it short")
    func imageSlowHeaders() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.slowHeaders), configure: { $0.limitRequests(toSeconds: 4) }) {
            client, _ in
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, "/images/img-001.jpg") }
            #expect(image.error == nil, "\(String(describing: image.error))")
            #expect(image.response?.info.format == .jpeg)
            #expect(elapsed >= .milliseconds(1_400))
        }
    }

    // MARK: Resets

    @Test("pages: a connection reset without a response fails, naming the URL and page 1, saying try again")
    func pageReset() async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath("/test/reset")) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: "/test/reset", says: ["try again"])
            #expect(error?.underlying?.code == .connectionLost)
        }
    }

    @Test("images: a connection reset without a response fails, naming the image URL, saying try again")
    func imageReset() async throws {
        try await FaultMatrix.withClient { client, server in
            let image = try await FaultMatrix.image(client, "/test/reset")
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: "/test/reset", says: ["try again"])
            #expect(image.error?.underlying?.code == .connectionLost)
        }
    }

    @Test("pages: a reset with a cached copy serves the copy, stale, with the reason")
    func pageResetServesStale() async throws {
        let faults = FaultInjection(failFirst: 1_000, failFirstFault: .connectionReset)
        try await FaultMatrix.withCachedCopy(faults: faults, warm: { client in
            _ = try await client.repository.page(.number(1))
        }) { client, server in
            let page = try await client.repository.page(.number(1))
            #expect(page.posts.map(\.id) == Array(1...10))
            #expect(page.staleReason?.contains("the network failed") == true, "\(String(describing: page.staleReason))")
            #expect(server.requestCount(path: "/api/posts") >= 1, "the expired copy was revalidated")
        }
    }

    @Test("images: a reset with a cached copy serves the copy, stale")
    func imageResetServesStale() async throws {
        let faults = FaultInjection(failFirst: 1_000, failFirstFault: .connectionReset)
        try await FaultMatrix.withCachedCopy(faults: faults, warm: { client in
            let image = try await FaultMatrix.image(client, "/images/img-001.jpg")
            #expect(image.response?.source == .network)
        }) { client, server in
            let image = try await FaultMatrix.image(client, "/images/img-001.jpg")
            #expect(image.error == nil, "\(String(describing: image.error))")
            #expect(image.response?.isStale == true)
            #expect(image.response?.staleReason?.hasPrefix("the network failed") == true, "\(String(describing: image.response?.staleReason))")
            #expect(image.response?.info.format == .jpeg)
            #expect(server.requestCount(path: "/images/img-001.jpg") >= 1, "the expired copy was revalidated")
        }
    }

    // MARK: Truncation

    @Test("pages: a body cut short fails, naming the URL and page 1; nothing is cached")
    func pageTruncated() async throws {
        let path = "/test/truncate?length=4000&sent=1000"
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath(path)) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(error, code: .network, client: client, server: server, path: path, says: ["try again"])
            #expect(error?.underlying?.code == .truncatedBody)
        }
    }

    @Test("images: a body cut short fails, naming the image URL; nothing is cached")
    func imageTruncated() async throws {
        try await FaultMatrix.withClient { client, server in
            let path = "/test/truncate?length=4000&sent=1000"
            let image = try await FaultMatrix.image(client, path)
            await FaultMatrix.expectImageFailure(image, code: .network, client: client, server: server, path: path, says: ["try again"])
            #expect(image.error?.underlying?.code == .truncatedBody)
        }
    }

    // MARK: 5xx

    @Test("pages: HTTP 503 fails as httpStatus, naming the URL and page 1, saying try again later")
    func pageServerError() async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath("/test/status/503")) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(
                error, code: .httpStatus, client: client, server: server, path: "/test/status/503",
                says: ["HTTP 503", "try again later"])
        }
    }

    @Test("images: HTTP 500 says the server is in trouble, try again later, naming the image URL")
    func imageServerError() async throws {
        try await FaultMatrix.withClient { client, server in
            let image = try await FaultMatrix.image(client, "/test/status/500")
            await FaultMatrix.expectImageFailure(
                image, code: .httpStatus, client: client, server: server, path: "/test/status/500",
                says: ["HTTP 500", "try again later"])
        }
    }

    @Test("pages: HTTP 503 with a cached copy serves the copy, stale, saying the server failed (HTTP 503)")
    func pageServerErrorServesStale() async throws {
        try await FaultMatrix.withCachedCopy(faults: FaultInjection(failFirst: 1_000, failFirstFault: .status(503)), warm: { client in
            _ = try await client.repository.page(.number(1))
        }) { client, server in
            let page = try await client.repository.page(.number(1))
            #expect(page.posts.map(\.id) == Array(1...10))
            #expect(page.staleReason == "the server failed (HTTP 503)", "\(String(describing: page.staleReason))")
            #expect(server.requestCount(path: "/api/posts") == 1)
        }
    }

    @Test("images: HTTP 503 with a cached copy serves the copy, stale")
    func imageServerErrorServesStale() async throws {
        try await FaultMatrix.withCachedCopy(faults: FaultInjection(failFirst: 1_000, failFirstFault: .status(503)), warm: { client in
            _ = try await FaultMatrix.image(client, "/images/img-001.jpg")
        }) { client, server in
            let image = try await FaultMatrix.image(client, "/images/img-001.jpg")
            #expect(image.error == nil, "\(String(describing: image.error))")
            #expect(image.response?.isStale == true)
            #expect(image.response?.staleReason?.hasPrefix("the server failed (HTTP 5") == true, "\(String(describing: image.response?.staleReason))")
            #expect(server.requestCount(path: "/images/img-001.jpg") == 1)
        }
    }

    // MARK: 429 with Retry-After

    /// The first request of each path is refused with `429` and `Retry-After: 1`.
    static let rateLimitedOnce = FaultInjection(failFirst: 1, failFirstFault: .status(429, retryAfter: 1), failFirstScope: .eachPath)

    @Test("pages: 429 with Retry-After: 1 is retried after the wait, and the page loads")
    func pageRateLimitRetried() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.rateLimitedOnce), configure: {
            $0.http.retryPolicy = FaultMatrix.twoAttempts
        }) { client, server in
            let (page, elapsed) = try await FaultMatrix.timed { try await client.repository.page(.number(1)) }
            #expect(page.posts.count == 10)
            #expect(server.requestCount(path: "/api/posts") == 2)
            #expect(elapsed >= .milliseconds(900), "Retry-After: 1 was not honoured: \(elapsed)")
        }
    }

    @Test("images: 429 with Retry-After: 1 is retried after the wait, and the image loads")
    func imageRateLimitRetried() async throws {
        try await FaultMatrix.withClient(FaultMatrix.server(faults: Self.rateLimitedOnce), configure: {
            $0.http.retryPolicy = FaultMatrix.twoAttempts
        }) { client, server in
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, "/images/img-001.jpg") }
            #expect(image.error == nil, "\(String(describing: image.error))")
            #expect(server.requestCount(path: "/images/img-001.jpg") == 2)
            #expect(elapsed >= .milliseconds(900), "Retry-After: 1 was not honoured: \(elapsed)")
        }
    }

    @Test("pages: 429 with Retry-After: 3600 fails at once (no hour's wait), naming the URL and page 1, saying try again later")
    func pageRateLimitLong() async throws {
        let path = "/test/status/429?retryAfter=3600"
        try await FaultMatrix.withClient(configure: {
            FaultMatrix.postsPath(path)(&$0)
            $0.http.retryPolicy = FaultMatrix.twoAttempts
        }) { client, server in
            let (error, elapsed) = await FaultMatrix.timed { await FaultMatrix.firstPageError(client) }
            await FaultMatrix.expectPageFailure(
                error, code: .httpStatus, client: client, server: server, path: path,
                says: ["HTTP 429", "rate-limiting (Retry-After 3600)", "try again later"])
            #expect(server.requestCount(path: "/test/status/429") == 1)
            #expect(elapsed < .seconds(5), "\(elapsed)")
        }
    }

    @Test("images: 429 with Retry-After: 3600 fails at once, saying rate-limited, Retry-After 3600, try again later")
    func imageRateLimitLong() async throws {
        try await FaultMatrix.withClient(configure: { $0.http.retryPolicy = FaultMatrix.twoAttempts }) { client, server in
            let path = "/test/status/429?retryAfter=3600"
            let (image, elapsed) = try await FaultMatrix.timed { try await FaultMatrix.image(client, path) }
            await FaultMatrix.expectImageFailure(
                image, code: .httpStatus, client: client, server: server, path: path,
                says: ["HTTP 429", "rate-limiting", "Retry-After 3600", "try again later"])
            #expect(server.requestCount(path: "/test/status/429") == 1)
            #expect(elapsed < .seconds(5), "\(elapsed)")
        }
    }

    // MARK: Redirects

    @Test("pages: a redirect chain past 5 hops stops there, naming the URL and page 1")
    func pageRedirectLoop() async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath("/test/redirect/50")) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: "/test/redirect/50", says: ["too many redirects"])
            #expect(error?.underlying?.code == .tooManyRedirects)
            #expect(server.requestCount(pathPrefix: "/test/redirect/") <= 6)
        }
    }

    @Test("images: a redirect chain past 5 hops stops there, naming the image URL")
    func imageRedirectLoop() async throws {
        try await FaultMatrix.withClient { client, server in
            let image = try await FaultMatrix.image(client, "/test/redirect/50")
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: "/test/redirect/50", says: ["too many redirects"])
            #expect(image.error?.underlying?.code == .tooManyRedirects)
            #expect(server.requestCount(pathPrefix: "/test/redirect/") <= 6)
        }
    }

    static let nonHTTPTargets = ["file:///etc/passwd", "ftp://127.0.0.1/posts.json"]

    static func redirectPath(to target: String) -> String {
        "/test/redirect-to?url=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target)
    }

    @Test("pages: a redirect to a non-http scheme is refused, naming the URL and page 1", arguments: nonHTTPTargets)
    func pageRedirectToOtherScheme(target: String) async throws {
        let path = Self.redirectPath(to: target)
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath(path)) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: path, says: ["only http and https are allowed"])
            #expect(error?.underlying?.code == .unsupportedScheme)
        }
    }

    @Test("images: a redirect to a non-http scheme is refused, naming the image URL", arguments: nonHTTPTargets)
    func imageRedirectToOtherScheme(target: String) async throws {
        try await FaultMatrix.withClient { client, server in
            let path = Self.redirectPath(to: target)
            let image = try await FaultMatrix.image(client, path)
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: path, says: ["only http and https are allowed"])
            #expect(image.error?.underlying?.code == .unsupportedScheme)
        }
    }

    // MARK: Oversize

    @Test("pages: a page past maximumPageBytes is abandoned, naming the URL, page 1, the bound and how to raise it")
    func pageOversize() async throws {
        // A server that ignores the page size sends 2,000 posts (about 1.5 MB) for page 1.
        let server = FaultMatrix.server(quirks: PaginationQuirks(ignoresPageSize: true, servedPostCount: 2_000))
        try await FaultMatrix.withClient(server, configure: { $0.backend.maximumPageBodySize = 64 << 10 }) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(
                error, code: .network, client: client, server: server, path: "/api/posts",
                says: ["64 KiB", "ignore the page size", "Raise the limit"])
            #expect(error?.underlying?.code == .bodyTooLarge)
            // How to raise it is the caller's to word (a backend file's maximumPageBytes in the CLI)
            #expect(error?.recovery == .raisePageBodyLimit)
        }
    }

    @Test("images: an image past the body limit is abandoned, naming the image URL and the limit")
    func imageOversize() async throws {
        try await FaultMatrix.withClient(configure: { $0.http.maximumBodySize = 64 << 10 }) { client, server in
            let image = try await FaultMatrix.image(client, "/test/bytes/4000000")
            await FaultMatrix.expectImageFailure(
                image, code: .network, client: client, server: server, path: "/test/bytes/4000000",
                says: ["larger than the 64 KiB limit", "not read to the end"])
            #expect(image.error?.underlying?.code == .bodyTooLarge)
        }
    }

    // MARK: Not an image, not JSON

    @Test("images: a 200 whose body is not an image is refused and never cached", arguments: ["/test/bytes/2000", "/api/posts?page=1&limit=1"])
    func imageNotAnImage(path: String) async throws {
        try await FaultMatrix.withClient { client, server in
            let image = try await FaultMatrix.image(client, path)
            await FaultMatrix.expectImageFailure(
                image, code: .notAnImage, client: client, server: server, path: path,
                says: ["not a PNG, JPEG, GIF or WebP image", "not cached"])
        }
    }

    @Test("pages: a 200 whose body is not JSON fails as decoding, naming the URL and page 1; never cached",
          arguments: ["/test/bytes/2000", "/images/img-001.jpg", "/test/redirect/0"])
    func pageNotJSON(path: String) async throws {
        try await FaultMatrix.withClient(configure: FaultMatrix.postsPath(path)) { client, server in
            let error = await FaultMatrix.firstPageError(client)
            await FaultMatrix.expectPageFailure(error, code: .decoding, client: client, server: server, path: path, says: ["not JSON"])
        }
    }
}
