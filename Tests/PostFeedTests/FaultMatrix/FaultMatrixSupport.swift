import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// The fault matrix's harness: a real fixture server on 127.0.0.1 (its `/test/…` routes on,
/// its fault injection and pagination quirks as a row needs) and a real ``FeedClient`` with
/// tight limits, so that every fault shows within a second or two.
enum FaultMatrix {
    /// Limits small enough for a quick suite, large enough for a loaded 2-core machine:
    /// connect 2 s, total 5 s, stall 2 s, no retries. Rows that test a limit set their own.
    static func tighten(_ configuration: inout FeedClient.Configuration) {
        configuration.http.timeouts = HTTPTimeouts(connect: .seconds(2), total: .seconds(5), stall: .seconds(2))
        configuration.http.retryPolicy = .never
    }

    /// Retries as a user gets them by default, with short backoffs.
    static let twoAttempts = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(50))

    /// The fixture server with its test routes on.
    static func server(
        faults: FaultInjection = .none, quirks: PaginationQuirks = .none, flavor: BackendFlavor = .postFeed
    ) -> FixtureServerConfiguration {
        var configuration = FixtureServerConfiguration(flavor: flavor, faults: faults, enablesTestRoutes: true)
        configuration.quirks = quirks
        return configuration
    }

    /// A server and a client (page size 10, the `postfeed` preset unless `preset` says) on
    /// a fresh cache root; `configure` runs after ``tighten(_:)``.
    static func withClient<T>(
        _ server: FixtureServerConfiguration = server(), pageSize: Int = 10, preset: String = "postfeed",
        configure: (inout FeedClient.Configuration) -> Void = { _ in },
        _ body: (FeedClient, RunningFixtureServer) async throws -> T
    ) async throws -> T {
        try await FeedTestSupport.withClient(
            server: server, pageSize: pageSize, preset: preset,
            configure: { configuration in
                tighten(&configuration)
                configure(&configuration)
            },
            { client, running, _ in try await body(client, running) })
    }

    /// Loads the list from `path` (a `/test/…` route, with or without a query of its own)
    /// instead of `/api/posts`: the page URL is `path` plus `page=1&limit=10`.
    static func postsPath(_ path: String) -> (inout FeedClient.Configuration) -> Void {
        { $0.backend.postsPath = path }
    }

    // MARK: Pages

    /// The first page's error, or `nil` (recorded as an issue) when it loaded.
    static func firstPageError(
        _ client: FeedClient, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RepositoryError? {
        do {
            let page = try await client.repository.page(client.repository.firstPageKey, cachePolicy: .useCache, priority: .high)
            Issue.record("page 1 loaded (\(page.posts.count) posts) where it should have failed", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// What every failed page must give: `code`, one line naming page 1 and the URL the
    /// client asked for (`path` under the server), with each of `says` in it; the page
    /// never cached.
    static func expectPageFailure(
        _ error: RepositoryError?, code: RepositoryError.Code, client: FeedClient, server: RunningFixtureServer,
        path: String, says: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        let text = error.description
        #expect(error.code == code, "\(error.code): \(text)", sourceLocation: sourceLocation)
        #expect(text.contains(server.baseURL.absoluteString + path), "the URL is not named: \(text)", sourceLocation: sourceLocation)
        #expect(text.contains("page 1"), "the page is not named: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("\n"), "not one line: \(text)", sourceLocation: sourceLocation)
        for phrase in says {
            #expect(text.contains(phrase), "'\(phrase)' missing: \(text)", sourceLocation: sourceLocation)
        }
        await expectPageNotCached(client, sourceLocation: sourceLocation)
    }

    /// The first page is not in the page cache (a cache-only read says `.notCached`).
    static func expectPageNotCached(_ client: FeedClient, sourceLocation: SourceLocation = #_sourceLocation) async {
        await client.pageCache.flush()
        do {
            let page = try await client.repository.page(client.repository.firstPageKey, cachePolicy: .cacheOnly, priority: .normal)
            Issue.record("a failed page was cached: \(page.posts.count) posts", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .notCached, "\(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Images

    /// The image of a post whose `imageUrl` is `path` (relative to the server).
    static func image(_ client: FeedClient, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> PostImage
    {
        try #require(
            await client.image(for: Post(id: 1, title: "fault matrix", body: "", imageURL: path)),
            "a post naming an image gets an image line", sourceLocation: sourceLocation)
    }

    /// What every failed image must give: `code`, one line naming the image URL with each of
    /// `says` in it; nothing in the memory or disk cache.
    static func expectImageFailure(
        _ image: PostImage, code: ImagePipelineError.Code, client: FeedClient, server: RunningFixtureServer,
        path: String, says: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        #expect(image.response == nil, "an image was delivered", sourceLocation: sourceLocation)
        guard let error = image.error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        let text = error.description
        #expect(error.code == code, "\(error.code): \(text)", sourceLocation: sourceLocation)
        #expect(text.contains(server.baseURL.absoluteString + path), "the URL is not named: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("\n"), "not one line: \(text)", sourceLocation: sourceLocation)
        for phrase in says {
            #expect(text.contains(phrase), "'\(phrase)' missing: \(text)", sourceLocation: sourceLocation)
        }
        guard let url = image.url else {
            Issue.record("no image URL: \(text)", sourceLocation: sourceLocation)
            return
        }
        await expectNoImageCached(client, url: url, sourceLocation: sourceLocation)
    }

    /// Neither image cache layer holds anything for `url`, and the disk layer has no entry.
    static func expectNoImageCached(_ client: FeedClient, url: URL, sourceLocation: SourceLocation = #_sourceLocation) async {
        await client.imageCache.flush()
        #expect(client.images.cachedImage(for: url) == nil, "a failed image was cached", sourceLocation: sourceLocation)
        #expect(client.imageCache.statistics().entryCount == 0, "the image disk cache has entries", sourceLocation: sourceLocation)
    }

    // MARK: A cached copy, then a fault

    /// The backend identity both servers share, so the second finds what the first cached.
    static let identity = "fault-matrix"

    /// Runs `warm` against a healthy server that marks everything expired at once
    /// (`max-age=0`), then `body` against a second server with `faults`, on the same cache
    /// root: every request of `body` must revalidate, and meets the fault.
    static func withCachedCopy(
        faults: FaultInjection,
        warm: (FeedClient) async throws -> Void,
        _ body: (FeedClient, RunningFixtureServer) async throws -> Void
    ) async throws {
        let root = FeedTestSupport.temporaryDirectory("fault-matrix")
        defer { try? FileManager.default.removeItem(at: root) }
        for (round, faults) in [FaultInjection.none, faults].enumerated() {
            var serverConfiguration = server(faults: faults)
            serverConfiguration.pageMaxAge = 0
            serverConfiguration.imageMaxAge = 0
            try await RunningFixtureServer.withRunning(serverConfiguration) { server in
                var configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 10)
                configuration.backend.fixedIdentity = identity
                tighten(&configuration)
                try await FeedClient.withFeedClient(configuration) { client in
                    if round == 0 { try await warm(client) } else { try await body(client, server) }
                }
            }
        }
    }

    // MARK: Time

    /// Runs `body` and returns how long it took.
    static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await body()
        return (result, clock.now - start)
    }
}
