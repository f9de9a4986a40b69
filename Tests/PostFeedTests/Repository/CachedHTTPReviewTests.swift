import Foundation
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@testable import PostFeed

/// Defects a review of the one cached-HTTP path found (a `304` over a newer entry, a
/// prefetch outliving a refresh, late image prefetches at shutdown, a `304` dropping the
/// stored max-age, a page past the end asked for twice), each against a real fixture server.
@Suite("Cached-HTTP path: review findings")
struct CachedHTTPReviewTests {
    private static func plainCache(_ disk: DiskCache) -> PlainResponseCache {
        PlainResponseCache(name: "test", cache: disk) { _, _ in }
    }

    @Test("a 304 never writes the old entry's validators over a newer body another writer stored meanwhile")
    func notModifiedKeepsNewerEntry() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(400)), pageMaxAge: 0)
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let disk = try DiskCache(directory: folder)
                    let cache = Self.plainCache(disk)
                    let loader = CachedHTTPLoader(http: client, reuseWindow: 0)
                    let url = server.baseURL.appending(path: "api/posts").appending(queryItems: [URLQueryItem(name: "page", value: "1")])
                    let request = CachedHTTPLoader.Request(http: HTTPRequest(url: url), key: "page-1", policy: .useCache)
                    _ = try await loader.load(request, in: cache)
                    let old = try #require(disk.entry(forKey: "page-1"))
                    #expect(old.metadata.etag != nil)

                    // The entry is expired (max-age=0): the next load asks with If-None-Match.
                    async let revalidation = loader.load(request, in: cache)
                    let revalidationSent = await FeedTestSupport.eventually { server.requestCount(path: "/api/posts") == 2 }
                    try #require(revalidationSent)
                    // While the 304 is on its way, another writer stores a newer body.
                    let newer = CacheEntryMetadata(
                        key: "page-1", etag: "\"newer\"", expiresAt: Date().addingTimeInterval(3600),
                        storedAt: Date().addingTimeInterval(1))
                    try await disk.performWrite { () throws(any Error) in try disk.store(Data("newer".utf8), metadata: newer, forKey: "page-1") }
                    guard case .cached(_, let revalidated, _) = try await revalidation else {
                        Issue.record("the revalidation was not answered from the cache")
                        return
                    }
                    #expect(revalidated)
                    await disk.flush()
                    let stored = try #require(disk.entry(forKey: "page-1"))
                    #expect(stored.data == Data("newer".utf8))
                    #expect(stored.metadata.etag == "\"newer\"", "the 304 wrote the old ETag over the newer body")
                    #expect(stored.metadata.expiresAt == newer.expiresAt)
                }
            }
        }
    }

    @Test("after a bare 304 the stored Cache-Control max-age still counts: fresh for max-age, not a heuristic")
    func notModifiedKeepsStoredMaxAge() async throws {
        let clock = TestClock()
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(enablesTestRoutes: true)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let disk = try DiskCache(directory: folder)
                    let cache = Self.plainCache(disk)
                    let loader = CachedHTTPLoader(http: client, reuseWindow: 0, now: clock.now)
                    let url = server.baseURL.appending(path: "test/etag").appending(queryItems: [
                        URLQueryItem(name: "maxAge", value: "60"), URLQueryItem(name: "bare304", value: "1"),
                    ])
                    let request = CachedHTTPLoader.Request(http: HTTPRequest(url: url), key: "etag", policy: .useCache)
                    _ = try await loader.load(request, in: cache)
                    #expect(disk.entry(forKey: "etag")?.metadata.expiresAt == clock.now().addingTimeInterval(60))

                    clock.advance(by: 61)
                    guard case .cached(let entry, let revalidated, _) = try await loader.load(request, in: cache) else {
                        Issue.record("the revalidation was not answered from the cache")
                        return
                    }
                    #expect(revalidated)
                    #expect(server.recordedRequests.last?.headers["if-none-match"] != nil)
                    let expected = clock.now().addingTimeInterval(60)
                    #expect(entry.metadata.expiresAt == expected, "freshness came from the 304's headers alone")
                    await disk.flush()
                    #expect(disk.entry(forKey: "etag")?.metadata.expiresAt == expected)

                    // Within the max-age again: served without a request.
                    let requests = server.requestCount(path: "/test/etag")
                    clock.advance(by: 30)
                    _ = try await loader.load(request, in: cache)
                    #expect(server.requestCount(path: "/test/etag") == requests)
                }
            }
        }
    }

    @Test("a page load that started before an invalidation is not joined by one after it, nor stored in the new generation")
    func invalidationCutsOffEarlierFlights() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(400)))
        try await RunningFixtureServer.withRunning(slow, waitingForPort: .seconds(15)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try HTTPPostRepository(
                        backend: BackendDescription.preset("postfeed", baseURL: server.baseURL), pageSize: 10,
                        loader: client, pageCache: try DiskCache(directory: folder))
                    async let before = repository.page(.number(2), cachePolicy: .useCache, priority: .normal)
                    let firstRequestSent = await FeedTestSupport.eventually { server.requestCount(path: "/api/posts") == 1 }
                    try #require(firstRequestSent)
                    await repository.invalidateCachedPages()
                    let after = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(!after.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 2, "the load after the refresh joined the old flight")
                    _ = try await before
                    // What is cached now is the later load's page: used, not fetched a third time.
                    let again = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(again.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 2)
                }
            }
        }
    }

    @Test("refresh cancels the old list's page prefetch")
    func refreshCancelsPagePrefetch() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(300)))
        try await FeedTestSupport.withClient(server: slow) { client, _, _ in
            let feed = client.infinite
            _ = try await feed.loadMore()
            let prefetch = try #require(await feed.pagePrefetch?.task)
            try await feed.refresh()
            #expect(prefetch.isCancelled, "a prefetch of the old list's next page survived the refresh")
        }
    }

    @Test("no image prefetch starts after cancelPrefetching, so shutdown never waits for one")
    func noPrefetchAfterCancel() async throws {
        try await ImagePipelineTests.withPipeline { pipeline, server, _, _ in
            await pipeline.cancelPrefetching()
            let urls = ["img-004.jpg", "img-005.jpg"].map { ImagePipelineTests.imageURL(server, $0) }
            await pipeline.prefetch(urls)
            await pipeline.finishPrefetching()
            #expect(server.requestCount(pathPrefix: "/images/") == 0)
            // Loads asked for directly still work.
            let direct = try await pipeline.image(for: urls[0])
            #expect(direct.source == .network)
        }
    }

    @Test("a page past the end is asked for once per run (a prefetch's 404, then the reader's next), again after a refresh")
    func pastTheEndIsRemembered() async throws {
        try await RunningFixtureServer.withRunning { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try HTTPPostRepository(
                        backend: BackendDescription.preset("postfeed", baseURL: server.baseURL), pageSize: 13,
                        loader: client, pageCache: try DiskCache(directory: folder))
                    for _ in 0..<2 {
                        await #expect(throws: RepositoryError.self) {
                            _ = try await repository.page(.number(20), cachePolicy: .useCache, priority: .normal)
                        }
                    }
                    #expect(server.requestCount(path: "/api/posts") == 1)
                    await repository.invalidateCachedPages()
                    do {
                        _ = try await repository.page(.number(20), cachePolicy: .useCache, priority: .normal)
                        Issue.record("page 20 of 19 loaded")
                    } catch let error as RepositoryError {
                        #expect(error.code == .pageOutOfRange)
                    }
                    #expect(server.requestCount(path: "/api/posts") == 2)
                }
            }
        }
    }
}
