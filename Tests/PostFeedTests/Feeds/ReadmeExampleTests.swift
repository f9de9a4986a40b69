import Foundation
import PostFeed
import PostFeedServer
import Testing

/// The README's library example, kept here so it is known to compile and run.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("Resume the infinite feed, load a page, save the place")
    func readmeExample() async throws {
        let cacheRoot = FeedTestSupport.temporaryDirectory("readme")
        defer { try? FileManager.default.removeItem(at: cacheRoot) }
        try await RunningFixtureServer.withRunning { server in
            let titles = try await Self.example(baseURL: server.baseURL, cacheRoot: cacheRoot)
            #expect(titles.count == 20)
        }
    }

    // MARK: README (keep in sync with README.md, "Using the library")
    static func example(baseURL: URL, cacheRoot: URL) async throws -> [String] {
        let backend = try BackendDescription.preset("postfeed", baseURL: baseURL)
        let configuration = FeedClient.Configuration(
            backend: backend, pageSize: 20, cacheLocation: CacheLocation(root: cacheRoot))

        return try await FeedClient.withFeedClient(configuration) { client in
            // Put the reader back where the last run left them (no network with warm caches).
            let resumed = try await client.resumeInfinite()

            // Load the next page and read the posts, with their images.
            let feed = client.infinite
            let start = await feed.count
            try await feed.loadMore()
            let posts = try await feed.posts(in: start..<(await feed.count))
            for post in posts {
                if let image = await client.image(for: post)?.response {
                    print(post.title, image.info.width, image.info.height)
                }
            }

            // Save the place: the first new post is at the top of the view, and the posts
            // shown count as seen (what `InfiniteFeed.Configuration.unseenOnly` hides next time).
            try await client.saveInfinite(
                anchorIndex: posts.isEmpty ? resumed.anchorIndex : start, shownPostIDs: PostIDSet(posts.map(\.id)))
            return posts.map(\.title)
        }
    }
}
