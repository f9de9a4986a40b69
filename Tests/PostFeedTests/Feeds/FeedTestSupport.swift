import Foundation
import PostFeedPreview
import PostFeed
import PostFeedHTTP
import PostFeedServer

/// Runs feed tests against the real fixture backend on 127.0.0.1 port 0, with a fresh
/// cache root in a temporary folder, through a real `FeedClient` (libcurl, disk caches).
enum FeedTestSupport {
    static func temporaryDirectory(_ name: String = "feed") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-tests-\(name)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A client configuration for `server` with the cache at `cacheRoot`.
    static func configuration(
        server: RunningFixtureServer, cacheRoot: URL, pageSize: Int = 10, preset: String = "postfeed",
        configure: (inout FeedClient.Configuration) -> Void = { _ in }
    ) throws -> FeedClient.Configuration {
        let backend = try BackendDescription.preset(preset, baseURL: server.baseURL)
        var configuration = FeedClient.Configuration(
            backend: backend, pageSize: pageSize, cacheLocation: CacheLocation(root: cacheRoot))
        configuration.http.retryPolicy = .never
        // As the CLI wires it: previews (PostFeedPreview) plugged in.
        configuration.plugins.append(ImagePreviews())
        configure(&configuration)
        return configuration
    }

    /// Starts a fixture server and a client on a new cache root.
    static func withClient<T>(
        server serverConfiguration: FixtureServerConfiguration = FixtureServerConfiguration(),
        pageSize: Int = 10,
        preset: String = "postfeed",
        configure: (inout FeedClient.Configuration) -> Void = { _ in },
        _ body: (FeedClient, RunningFixtureServer, URL) async throws -> T
    ) async throws -> T {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        return try await RunningFixtureServer.withRunning(serverConfiguration) { server in
            let configuration = try configuration(
                server: server, cacheRoot: root, pageSize: pageSize, preset: preset, configure: configure)
            return try await FeedClient.withFeedClient(configuration) { client in
                try await body(client, server, root)
            }
        }
    }

    /// Requests the server saw for the post list (any page).
    static func listRequests(_ server: RunningFixtureServer) -> Int {
        server.requestCount(path: "/api/posts")
    }

    /// Waits (bounded) until `condition` holds; background prefetches finish on their own time.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<200 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}
