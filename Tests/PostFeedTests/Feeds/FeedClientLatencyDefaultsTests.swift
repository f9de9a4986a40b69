import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import Testing

/// The defaults that keep a cold page at two round trips (issue 16's latency budget):
/// a page's images in one round of connections, cache writes without `fsync`.
@Suite("FeedClient latency defaults")
struct FeedClientLatencyDefaultsTests {
    @Test("The per-host cap covers a page's images, the page and the next page's prefetch; an explicit cap is kept")
    func connectionsPerHost() throws {
        #expect(FeedClient.connectionsPerHost(pageSize: 20) == 32)
        #expect(FeedClient.connectionsPerHost(pageSize: 1) == 16)
        #expect(FeedClient.connectionsPerHost(pageSize: 100) == 64)
        #expect(FeedClient.connectionsPerHost(pageSize: Int.max) == 16, "an overflowing size wraps negative, then the floor")
        let backend = try BackendDescription.preset("postfeed", baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        let location = CacheLocation(root: FileManager.default.temporaryDirectory.appending(path: "unused"))
        let defaults = FeedClient.Configuration(backend: backend, pageSize: 20, cacheLocation: location)
        #expect(defaults.http.maximumConnectionsPerHost == 32)
        let explicit = FeedClient.Configuration(
            backend: backend, pageSize: 20, cacheLocation: location, http: HTTPClient.Configuration(maximumConnectionsPerHost: 4))
        #expect(explicit.http.maximumConnectionsPerHost == 4)
    }

    @Test("Image and page caches skip fsync (entries fail their checksum if torn); a DiskCache syncs by default")
    func cacheWrites() {
        #expect(FeedStorage.defaultImageCache.synchronizesWrites == false)
        #expect(FeedStorage.defaultPageCache.synchronizesWrites == false)
        #expect(DiskCache.Configuration().synchronizesWrites)
    }
}
