import Foundation
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@testable import PostFeed

/// Issue 15, "one cached-HTTP path": pages, posts and images go through one loader
/// (`CachedHTTPLoader`) with one freshness policy, one single flight and one offline.
@Suite("One cached-HTTP path for pages and images")
struct CachedHTTPPathTests {
    /// The page-list requests the server saw, by query (`_page=2&_limit=10` …).
    private static func requestsByQuery(_ server: RunningFixtureServer, path: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for request in server.recordedRequests where request.path == path {
            counts[request.query ?? "", default: 0] += 1
        }
        return counts
    }

    @Test("walking a json-server feed (no-cache) fetches each page once, not a 200 and then a 304")
    func walkFetchesEachPageOnce() async throws {
        try await FeedTestSupport.withClient(
            server: FixtureServerConfiguration(flavor: .jsonServer017), pageSize: 10, preset: "json-server"
        ) { client, server, _ in
            let resumed = try await client.resumeInfinite()
            let reading = await client.readInfinite(pages: 4, after: resumed, onPage: { _ in })
            #expect(reading.failure == nil)
            #expect(reading.end == 40)
            // The prefetch of the page after the last one read may or may not have gone out.
            let counts = Self.requestsByQuery(server, path: "/posts")
            #expect(counts.count >= 4)
            let eachQueryOnce = counts.values.allSatisfy { $0 == 1 }
            #expect(eachQueryOnce, "\(counts)")
            let noneConditional = server.recordedRequests.allSatisfy { $0.headers["if-none-match"] == nil }
            #expect(noneConditional, "\(server.recordedRequests)")
        }
    }

    @Test("concurrent loads of one page share one transfer, and each caller gets the page")
    func pagesAreSingleFlight() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(200)))) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let cache = try DiskCache(directory: folder)
                    let repository = try HTTPPostRepository(
                        backend: BackendDescription.preset("postfeed", baseURL: server.baseURL), pageSize: 10, loader: client,
                        pageCache: cache)
                    let pages = try await withThrowingTaskGroup(of: Page.self) { group in
                        for _ in 0..<20 {
                            group.addTask { try await repository.page(.number(3), cachePolicy: .useCache, priority: .high) }
                        }
                        return try await group.reduce(into: [Page]()) { $0.append($1) }
                    }
                    #expect(pages.count == 20)
                    let idLists = Set(pages.map { $0.posts.map(\.id) })
                    #expect(idLists.count == 1)
                    let postCounts = pages.map(\.posts.count)
                    let allTen = postCounts.allSatisfy { $0 == 10 }
                    #expect(allTen, "\(postCounts)")
                    #expect(server.requestCount(path: "/api/posts") == 1)
                }
            }
        }
    }

    @Test("cacheElseLoad uses an expired entry as it is; reload asks unconditionally")
    func cacheElseLoad() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: 0)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let cache = try DiskCache(directory: folder)
                    let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
                    let first = try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache)
                    _ = try await first.page(.number(1), cachePolicy: .useCache, priority: .high)
                    #expect(server.requestCount(path: "/api/posts") == 1)

                    // A new run: the entry is expired (max-age=0).
                    let second = try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache)
                    let asIs = try await second.page(.number(1), cachePolicy: .cacheElseLoad, priority: .high)
                    #expect(asIs.isFromCache && !asIs.isStale)
                    #expect(server.requestCount(path: "/api/posts") == 1)
                    let missing = try await second.page(.number(2), cachePolicy: .cacheElseLoad, priority: .high)
                    #expect(!missing.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 2)
                    let reloaded = try await second.page(.number(1), cachePolicy: .reload, priority: .high)
                    #expect(!reloaded.isFromCache)
                    #expect(server.recordedRequests.last?.headers["if-none-match"] == nil)
                }
            }
        }
    }

    @Test("offline is the cache-only policy for pages and images alike, and never makes a request")
    func offlineIsOnePolicy() async throws {
        let root = FeedTestSupport.temporaryDirectory("offline-policy")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: 0, imageMaxAge: 0)) { server in
            let online = try FeedTestSupport.configuration(server: server, cacheRoot: root, pageSize: 10, preset: "postfeed")
            let post = try await FeedClient.withFeedClient(online) { client in
                let page = try await client.repository.page(.number(1), cachePolicy: .useCache, priority: .high)
                let withImage = page.posts.first { $0.imageURL != nil }
                let post = try #require(withImage)
                #expect(await client.image(for: post)?.response != nil)
                return post
            }
            let before = server.recordedRequests.count
            var offline = online
            offline.offline = true
            try await FeedClient.withFeedClient(offline) { client in
                #expect(client.loader.effective(.reload) == .cacheOnly)
                let page = try await client.repository.page(.number(1), cachePolicy: .reload, priority: .high)
                #expect(page.staleReason == "offline")
                let image = try #require(await client.image(for: post))
                #expect(image.response?.isStale == true)
                await #expect(throws: RepositoryError.self) {
                    _ = try await client.repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                }
                let uncached = Post(id: 999_999, title: "", body: "", imageURL: server.baseURL.appendingPathComponent("images/img-009.png").absoluteString)
                let missing = try #require(await client.image(for: uncached))
                #expect(missing.error?.code == .notCached)
                // Refreshing offline keeps the cache: it is all there is.
                await client.repository.invalidateCachedPages()
                #expect(try await client.repository.page(.number(1), cachePolicy: .useCache, priority: .high).posts == page.posts)
            }
            #expect(server.recordedRequests.count == before)
        }
    }

    /// Issue 29, item 4: an image cache keeps images. Without an explicit lifetime an
    /// image is fresh for `ImagePipeline.Configuration.defaultFreshness` (7 days); a page
    /// keeps RFC 9111's heuristic; with the default set to `nil` an image gets the
    /// heuristic too.
    @Test("without caching headers, an image is kept for the default freshness, a page gets the heuristic")
    func oneFreshnessPolicy() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: -1, imageMaxAge: -1)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let images = try DiskCache(directory: folder.appendingPathComponent("images"))
                    let heuristicImages = try DiskCache(directory: folder.appendingPathComponent("heuristic-images"))
                    let pages = try DiskCache(directory: folder.appendingPathComponent("pages"))
                    let url = server.baseURL.appendingPathComponent("images/img-003.png")
                    _ = try await ImagePipeline(loader: client, disk: images).image(for: url)
                    var heuristic = ImagePipeline.Configuration()
                    heuristic.defaultFreshness = nil
                    _ = try await ImagePipeline(loader: client, disk: heuristicImages, configuration: heuristic).image(for: url)
                    let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
                    _ = try await HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: pages)
                        .page(.number(1), cachePolicy: .useCache, priority: .high)

                    // The image (Last-Modified, no Cache-Control): the default 7 days.
                    let image = try #require(images.entry(forKey: ImagePipeline.defaultCacheKey(url)))
                    let lifetime = try #require(image.metadata.expiresAt).timeIntervalSince(image.metadata.storedAt)
                    #expect(abs(lifetime - ImagePipeline.defaultImageFreshness) < 2, "lifetime \(lifetime)")
                    #expect(ImagePipeline.defaultImageFreshness == 7 * 86_400)

                    // Without the default: a tenth of its age, at most a day, as a page would get.
                    let plain = try #require(heuristicImages.entry(forKey: ImagePipeline.defaultCacheKey(url)))
                    let modified = try #require(plain.metadata.lastModified.flatMap(HTTPDate.parse))
                    let plainLifetime = try #require(plain.metadata.expiresAt).timeIntervalSince(plain.metadata.storedAt)
                    let expected = min(HTTPFreshness.heuristicLimit, 0.1 * plain.metadata.storedAt.timeIntervalSince(modified))
                    #expect(abs(plainLifetime - expected) < 2, "lifetime \(plainLifetime), expected \(expected)")

                    // The page has no Last-Modified: expired at once (RFC 9111's heuristic gives nothing).
                    let pageKey = backend.cacheKey(try backend.pageURL(for: .number(1), pageSize: 10).absoluteString)
                    let page = try #require(pages.entry(forKey: pageKey))
                    #expect(page.metadata.expiresAt == page.metadata.storedAt)
                }
            }
        }
    }

    @Test("a reload never joins a conditional load of the same page: it gets a fresh 200, not a 304")
    func reloadDoesNotJoinAConditionalFlight() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(300)), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let cache = try DiskCache(directory: folder)
                    let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
                    _ = try await HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache)
                        .page(.number(1), cachePolicy: .useCache, priority: .high)
                    // A new run: the entry is expired, so useCache revalidates while reload asks anew.
                    let repository = try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache)
                    async let conditional = repository.page(.number(1), cachePolicy: .useCache, priority: .high)
                    try await Task.sleep(for: .milliseconds(50))
                    let reloaded = try await repository.page(.number(1), cachePolicy: .reload, priority: .high)
                    let revalidated = try await conditional
                    #expect(!reloaded.isFromCache, "the reload was answered by the conditional request's 304")
                    #expect(revalidated.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 3)
                }
            }
        }
    }
}
