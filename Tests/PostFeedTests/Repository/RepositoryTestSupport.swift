import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Synchronization
import Testing

/// A clock tests move by hand, so expiry is tested without sleeping.
final class TestClock: Sendable {
    private let date: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        date = Mutex(start)
    }

    var now: @Sendable () -> Date { { [self] in date.withLock { $0 } } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A fresh page cache folder per test, removed afterwards.
func withTemporaryPageCache<T>(_ body: (URL) async throws -> T) async throws -> T {
    let root = FileManager.default.temporaryDirectory.appending(path: "postfeed-repository-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    return try await body(root.appending(path: "PageCache"))
}

/// Real libcurl client without retries: a stopped server fails at once.
func withTestClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    var configuration = HTTPClient.Configuration()
    configuration.retryPolicy = RetryPolicy(maximumAttempts: 1)
    configuration.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(10))
    return try await HTTPClient.withHTTPClient(configuration: configuration) { try await body($0) }
}

/// Follows `nextKey` from the first page to the end (at most `limit` pages).
func walkToEnd(_ repository: some PostRepository, policy: PageCachePolicy = .useCache, limit: Int = 200)
    async throws -> [Page]
{
    var pages: [Page] = []
    var key: PageKey? = repository.firstPageKey
    while let current = key {
        guard pages.count < limit else {
            Issue.record("the list did not end after \(limit) pages")
            break
        }
        let page = try await repository.page(current, cachePolicy: policy, priority: .normal)
        pages.append(page)
        key = page.nextKey
    }
    return pages
}

/// The ids of the posts in a peer dataset, in order.
enum PeerData {
    static func jsonPlaceholderPostIDs() throws -> [PostID] {
        let url = FixtureLocator.peerDataDirectory().appending(path: "jsonplaceholder/data.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let posts = root?["posts"] as? [[String: Any]] ?? []
        return posts.compactMap { ($0["id"] as? NSNumber).map { PostID($0.intValue) } }
    }

    static func dummyJSONPostIDs() throws -> [PostID] {
        let url = FixtureLocator.peerDataDirectory().appending(path: "dummyjson/posts.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let posts = (root as? [[String: Any]]) ?? ((root as? [String: Any])?["posts"] as? [[String: Any]]) ?? []
        return posts.compactMap { ($0["id"] as? NSNumber).map { PostID($0.intValue) } }
    }

    static func fixturePostIDs() throws -> [PostID] {
        let url = FixtureLocator.fixturesDirectory().appending(path: "posts.json")
        let posts = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]] ?? []
        return posts.compactMap { ($0["id"] as? NSNumber).map { PostID($0.intValue) } }
    }
}
