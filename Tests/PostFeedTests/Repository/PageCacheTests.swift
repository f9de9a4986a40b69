import Foundation
import SuiteSupport
@testable import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// The page cache against a real server: revalidation, offline reading, stale fallback,
/// invalidation, and error statuses.
@Suite("Page cache and errors")
struct PageCacheTests {
    func makeRepository(
        _ preset: String = "postfeed", server: RunningFixtureServer, client: HTTPClient, folder: URL,
        clock: TestClock = TestClock(), pageSize: Int = 20
    ) throws -> HTTPPostRepository {
        try HTTPPostRepository(
            backend: try BackendDescription.preset(preset, baseURL: server.baseURL), pageSize: pageSize,
            loader: client, pageCache: try DiskCache(directory: folder), now: clock.now)
    }

    @Test("a fresh page is served without a request; an expired one by a 304 that renews it")
    func revalidation() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(pageMaxAge: 60)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let clock = TestClock()
                    let repository = try makeRepository(server: server, client: client, folder: folder, clock: clock)

                    // Given a page fetched once
                    let first = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(!first.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 1)

                    // When it is asked again within max-age, Then no request is made
                    let cached = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(cached.isFromCache && !cached.isStale)
                    var firstFromCache = first
                    firstFromCache.isFromCache = true
                    #expect(cached == firstFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 1)

                    // When it has expired, and was fetched longer ago than the loader's reuse
                    // window (a response fetched this run is used as fetched), Then one
                    // conditional request gets a 304
                    clock.advance(by: CachedHTTPLoader.defaultReuseWindow + 1)
                    let revalidated = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(server.requestCount(path: "/api/posts") == 2)
                    let conditional = try #require(server.recordedRequests.last)
                    #expect(conditional.headers["if-none-match"] != nil)
                    #expect(revalidated.isFromCache && !revalidated.isStale)
                    #expect(revalidated.posts == first.posts)
                    #expect(revalidated.nextKey == .number(3), "Link and totals come back from the cached headers")
                    #expect(revalidated.totalCount == 247)

                    // And the 304 renewed the expiry: no request for another minute
                    clock.advance(by: 30)
                    _ = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                    #expect(server.requestCount(path: "/api/posts") == 2)

                    // And revalidate asks every time, still answered by 304
                    let again = try await repository.page(.number(2), cachePolicy: .revalidate, priority: .normal)
                    #expect(again.isFromCache)
                    #expect(server.requestCount(path: "/api/posts") == 3)

                    // And reload asks unconditionally
                    let reloaded = try await repository.page(.number(2), cachePolicy: .reload, priority: .normal)
                    #expect(!reloaded.isFromCache)
                    #expect(server.recordedRequests.last?.headers["if-none-match"] == nil)
                    #expect(server.requestCount(path: "/api/posts") == 4)
                }
            }
        }
    }

    @Test("json-server sends no-cache: used as fetched within a run, revalidated by a 304 in the next")
    func noCacheBackend() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: .jsonServer017)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try makeRepository("json-server", server: server, client: client, folder: folder, pageSize: 10)
                    _ = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    // The same run uses the page as fetched: no second request (it used to be a 304).
                    let second = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    #expect(server.requestCount(path: "/posts") == 1)
                    #expect(second.isFromCache)
                    #expect(second.nextKey == .number(2))
                    #expect(second.totalCount == 100)

                    // The next run (a new repository on the same cache) revalidates: one 304.
                    let next = try makeRepository("json-server", server: server, client: client, folder: folder, pageSize: 10)
                    let third = try await next.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    #expect(server.requestCount(path: "/posts") == 2)
                    #expect(server.recordedRequests.last?.headers["if-none-match"] != nil)
                    #expect(third.isFromCache && !third.isStale)
                    #expect(third.totalCount == 100)
                }
            }
        }
    }

    @Test("cacheOnly after warming makes no request, also in a new repository on the same folder")
    func cacheOnly() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let clock = TestClock()
                    let warm = try makeRepository(server: server, client: client, folder: folder, clock: clock)
                    let online = try await walkToEnd(warm)
                    server.resetRequestCounts()

                    // A later run: new repository, same cache folder, long after expiry.
                    clock.advance(by: 3600)
                    let offline = try makeRepository(server: server, client: client, folder: folder, clock: clock)
                    let pages = try await walkToEnd(offline, policy: .cacheOnly)
                    #expect(server.totalRequestCount == 0)
                    #expect(pages.map(\.posts) == online.map(\.posts))
                    let flags = pages.map { "fromCache \($0.isFromCache) stale \($0.isStale)" }
                    let allCachedAndStale = pages.allSatisfy { $0.isFromCache && $0.isStale }
                    #expect(allCachedAndStale, "expired pages read offline are marked stale: \(flags)")

                    // Posts come from the cached pages too, without a request.
                    let post = try await offline.post(id: 42, cachePolicy: .cacheOnly)
                    #expect(post.id == 42)
                    let fresh = try makeRepository(server: server, client: client, folder: folder, clock: clock)
                    #expect(try await fresh.post(id: 201, cachePolicy: .cacheOnly).id == 201, "found in the cached pages on disk")
                    #expect(server.totalRequestCount == 0)

                    let other = try makeRepository(server: server, client: client, folder: folder, clock: clock, pageSize: 10)
                    let notCached = await #expect(throws: RepositoryError.self) {
                        try await other.page(.number(2), cachePolicy: .cacheOnly, priority: .normal)
                    }
                    #expect(notCached?.code == .notCached)
                    #expect(notCached?.description.contains("limit=10") == true)
                    #expect(server.totalRequestCount == 0)
                }
            }
        }
    }

    @Test("network down: the cached page comes back marked stale; uncached pages fail naming the URL")
    func networkDown() async throws {
        try await withTestClient { client in
            try await withTemporaryPageCache { folder in
                let clock = TestClock()
                // Given page 1 fetched while the server runs
                let baseURL = try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
                    let repository = try makeRepository(server: server, client: client, folder: folder, clock: clock)
                    _ = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    return server.baseURL
                }
                // When the server is gone and the page has expired
                clock.advance(by: 120)
                let backend = try BackendDescription.preset("postfeed", baseURL: baseURL)
                let repository = try HTTPPostRepository(
                    backend: backend, loader: client, pageCache: try DiskCache(directory: folder), now: clock.now)
                let stale = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                // Then the cached page stands in, marked stale
                #expect(stale.isStale && stale.isFromCache)
                #expect(stale.posts.count == 20)
                #expect(try await repository.page(.number(1), cachePolicy: .revalidate, priority: .normal).isStale)

                // And reload does not fall back; an uncached page is a network error naming its URL
                let reload = await #expect(throws: RepositoryError.self) {
                    try await repository.page(.number(1), cachePolicy: .reload, priority: .normal)
                }
                #expect(reload?.code == .network)
                let uncached = await #expect(throws: RepositoryError.self) {
                    try await repository.page(.number(5), cachePolicy: .useCache, priority: .normal)
                }
                #expect(uncached?.code == .network)
                #expect(uncached?.underlying?.code == .cannotConnect)
                #expect(uncached?.description.contains("/api/posts?page=5&limit=20") == true)
                #expect(uncached?.description.contains("page 5") == true)
            }
        }
    }

    @Test("a 5xx falls back to the cached page; without one it names the status and the server's message")
    func serverErrors() async throws {
        try await withTestClient { client in
            try await withTemporaryPageCache { folder in
                // Given page 1 cached from a healthy server
                let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), pageMaxAge: 0)) { server in
                    let repository = try makeRepository(server: server, client: client, folder: folder)
                    _ = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    return server.port
                }
                // When the same address answers 500 to everything
                var faults = FaultInjection()
                faults.serverErrorShare = 1
                let failing = FixtureServerConfiguration(port: port, faults: faults)
                try await RunningFixtureServer.withRunning(failing, waitingForPort: .seconds(15)) { server in
                    let repository = try makeRepository(server: server, client: client, folder: folder)
                    // Then the cached page stands in, marked stale
                    let stale = try await repository.page(.number(1), cachePolicy: .revalidate, priority: .normal)
                    #expect(stale.isStale)
                    #expect(server.requestCount(path: "/api/posts") == 1)
                    // And an uncached page fails with the status
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(2), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(error?.code == .httpStatus)
                    #expect(error?.underlying?.status == 500)
                    #expect(error?.message.contains("page 2") == true)
                    #expect(error?.message.contains("HTTP 500") == true)
                    #expect(error?.message.contains("try again later") == true)
                }
            }
        }
    }

    @Test("a 400 names the server's own message")
    func badRequest() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let cursor = try makeRepository("postfeed-cursor", server: server, client: client, folder: folder)
                    let bad = await #expect(throws: RepositoryError.self) {
                        try await cursor.page(.cursor("not-a-cursor"), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(bad?.code == .httpStatus)
                    #expect(bad?.underlying?.status == 400)
                    #expect(bad?.message.contains("cursor 'not-a-cursor' is not valid") == true, "\(String(describing: bad))")
                    #expect(bad?.message.contains("/api/posts?cursor=not-a-cursor&limit=20") == true)
                }
            }
        }
    }

    @Test("404 past the last page is pageOutOfRange naming the page; json-server's empty page too")
    func outOfRange() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try makeRepository(server: server, client: client, folder: folder)
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(14), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(error?.code == .pageOutOfRange)
                    #expect(error?.page == .number(14))
                    #expect(error?.message.contains("page 14") == true)
                    #expect(error?.message.contains("past the end (13 pages of 20)") == true, "the server's message")
                    // A post that does not exist
                    let post = await #expect(throws: RepositoryError.self) { try await repository.post(id: 9999, cachePolicy: .useCache) }
                    #expect(post?.code == .notFound)
                    #expect(try await repository.post(id: 17, cachePolicy: .useCache).popularity == 0)
                }
            }
        }
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: .jsonServer017)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try makeRepository("json-server", server: server, client: client, folder: folder, pageSize: 10)
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(11), cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(error?.code == .pageOutOfRange)
                    #expect(error?.description.contains("page 11") == true)
                }
            }
        }
    }

    @Test("404 on the first page is a wrong posts URL, not the end of the list, in both modes")
    func firstPageNotFound() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    // The base URL with /api once too often: every page answers 404.
                    let wrong = server.baseURL.appendingPathComponent("api")
                    let repository = try HTTPPostRepository(
                        backend: try BackendDescription.preset("postfeed", baseURL: wrong), pageSize: 20,
                        loader: client, pageCache: try DiskCache(directory: folder))
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(repository.firstPageKey, cachePolicy: .useCache, priority: .normal)
                    }
                    #expect(error?.code == .httpStatus)
                    #expect(error?.underlying?.status == 404)
                    #expect(error?.message.contains("/api/api/posts?page=1&limit=20") == true, "\(String(describing: error))")
                    // What to do is the recovery's: "check that the base URL …" in the library's words.
                    #expect(error?.recovery == .checkBackend)
                    #expect(error?.description.contains("check that the base URL") == true, "\(String(describing: error))")

                    // The infinite feed reports it instead of ending an empty list.
                    let feed = InfiniteFeed(repository: repository)
                    let loadError = await #expect(throws: RepositoryError.self) { try await feed.loadMore() }
                    #expect(loadError?.code == .httpStatus)
                    #expect(await feed.hasMore, "the list did not end: its first page was never read")
                    // Numbered pages say the same.
                    let paged = PagedFeed(repository: repository)
                    let pageError = await #expect(throws: RepositoryError.self) { try await paged.goTo(page: 1) }
                    #expect(pageError?.code == .httpStatus)
                }
            }
        }
    }

    @Test("a body the description cannot read names URL, page and field, and is not cached")
    func decodingThroughServer() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: .jsonServer017)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    var backend = try BackendDescription.preset("json-server", baseURL: server.baseURL)
                    backend.fields.title = ["headline"]
                    let repository = try HTTPPostRepository(
                        backend: backend, pageSize: 10, loader: client, pageCache: try DiskCache(directory: folder))
                    let error = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(2), cachePolicy: .useCache, priority: .normal)
                    }
                    let url = "\(server.baseURL.absoluteString)/posts?_page=2&_limit=10"
                    #expect(error?.code == .decoding)
                    #expect(error?.description == "post #1 in page 2 of \(url): field \"headline\" missing")
                    let offline = await #expect(throws: RepositoryError.self) {
                        try await repository.page(.number(2), cachePolicy: .cacheOnly, priority: .normal)
                    }
                    #expect(offline?.code == .notCached)
                }
            }
        }
    }

    @Test("invalidation forgets this backend's pages, in this repository and in another on the same folder")
    func invalidation() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try makeRepository(server: server, client: client, folder: folder)
                    let sibling = try makeRepository(server: server, client: client, folder: folder)
                    _ = try await walkToEnd(repository)
                    _ = try await sibling.page(.number(1), cachePolicy: .cacheOnly, priority: .normal)

                    await repository.invalidateCachedPages()

                    for sharing in [repository, sibling] {
                        let error = await #expect(throws: RepositoryError.self) {
                            try await sharing.page(.number(1), cachePolicy: .cacheOnly, priority: .normal)
                        }
                        #expect(error?.code == .notCached)
                    }
                    // The entries are gone from disk, not only ignored.
                    let cache = try DiskCache(directory: folder)
                    let url = try repository.backend.pageURL(for: .number(3), pageSize: 20)
                    #expect(cache.entry(forKey: url.absoluteString) == nil)

                    // And fetching again refills the cache.
                    server.resetRequestCounts()
                    _ = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    _ = try await repository.page(.number(1), cachePolicy: .useCache, priority: .normal)
                    #expect(server.requestCount(path: "/api/posts") == 1)
                }
            }
        }
    }

    @Test("post(id:) without a post path finds the post in the pages loaded so far")
    func postWithoutPath() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: .dummyJSON)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    var backend = try BackendDescription.preset("dummyjson", baseURL: server.baseURL)
                    backend.postPath = nil
                    let repository = try HTTPPostRepository(
                        backend: backend, pageSize: 30, loader: client, pageCache: try DiskCache(directory: folder))
                    let notYet = await #expect(throws: RepositoryError.self) { try await repository.post(id: 12) }
                    #expect(notYet?.code == .notFound)
                    _ = try await repository.page(repository.firstPageKey)
                    #expect(try await repository.post(id: 12).id == 12)
                    #expect(server.requestCount(pathPrefix: "/posts/") == 0)
                }
            }
        }
    }
}
