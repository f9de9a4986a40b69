import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("ImagePipeline: cancellation of shared transfers, prefetch, cache keys")
struct ImagePipelineCoalescingTests {
    static let slowServer = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(400)))

    @Test("One caller cancelling leaves the shared transfer to the others")
    func oneCallerCancels() async throws {
        try await ImagePipelineTests.withPipeline(server: Self.slowServer) { pipeline, server, _, _ in
            let url = ImagePipelineTests.imageURL(server, "img-005.jpg")
            let leaving = Task { try await pipeline.image(for: url) }
            let staying = Task { try await pipeline.image(for: url) }
            try await Task.sleep(for: .milliseconds(100))
            leaving.cancel()
            await #expect(throws: ImagePipelineError.self) { try await leaving.value }
            let image = try await staying.value
            #expect(image.source == .network)
            #expect(server.requestCount(pathPrefix: "/images/") == 1)
        }
    }

    @Test("When every caller cancels, the transfer is cancelled and the next request starts anew")
    func allCallersCancel() async throws {
        try await ImagePipelineTests.withPipeline(server: Self.slowServer) { pipeline, server, disk, _ in
            let url = ImagePipelineTests.imageURL(server, "img-006.png")
            let callers = (0..<3).map { _ in Task { try await pipeline.image(for: url) } }
            try await Task.sleep(for: .milliseconds(100))
            callers.forEach { $0.cancel() }
            for caller in callers {
                let error = await #expect(throws: ImagePipelineError.self) { try await caller.value }
                #expect(error?.code == .cancelled)
            }
            #expect(disk.entry(forKey: ImagePipeline.defaultCacheKey(url)) == nil, "a cancelled transfer stores nothing")
            let image = try await pipeline.image(for: url)
            #expect(image.source == .network)
            #expect(server.requestCount(pathPrefix: "/images/") == 2)
        }
    }

    @Test("A cancelled caller's error names the URL it asked for, whatever the cache key looks like")
    func cancelledErrorNamesTheURL() async throws {
        try await ImagePipelineTests.withPipeline(server: Self.slowServer) { _, server, disk, client in
            // Keys that are not URLs, like those of a backend with a fixed identity
            let pipeline = ImagePipeline(
                loader: client, disk: disk, configuration: .init(cacheKey: { "[fixtures] \($0.path)" }))
            let url = ImagePipelineTests.imageURL(server, "img-004.jpg")
            let caller = Task { try await pipeline.image(for: url) }
            try await Task.sleep(for: .milliseconds(100))

            caller.cancel()

            let error = await #expect(throws: ImagePipelineError.self) { try await caller.value }
            #expect(error?.code == .cancelled)
            #expect(error?.url == url)
        }
    }

    @Test("Prefetch fills the caches at low priority; a later request is a memory hit")
    func prefetchFillsCaches() async throws {
        try await ImagePipelineTests.withPipeline { pipeline, server, _, _ in
            let urls = ["img-007.jpg", "img-008.jpg", "img-009.png"].map { ImagePipelineTests.imageURL(server, $0) }
            await pipeline.prefetch(urls)
            let fetchedThree = await FeedTestSupport.eventually { server.requestCount(pathPrefix: "/images/") == 3 }
            #expect(fetchedThree, "\(server.requestCount(pathPrefix: "/images/")) image requests")
            let thirdCached = await FeedTestSupport.eventually { await pipeline.cachedImage(for: urls[2]) != nil }
            #expect(thirdCached)
            for url in urls {
                _ = try await pipeline.image(for: url)
            }
            #expect(server.requestCount(pathPrefix: "/images/") == 3)
        }
    }

    @Test("cancelPrefetching stops queued prefetches")
    func cancelPrefetching() async throws {
        try await ImagePipelineTests.withPipeline(server: Self.slowServer) { pipeline, server, disk, _ in
            let urls = (10...19).map { ImagePipelineTests.imageURL(server, String(format: "img-%03d.%@", $0, $0 % 3 == 0 ? "png" : "jpg")) }
            await pipeline.prefetch(urls)
            await pipeline.cancelPrefetching()
            try await Task.sleep(for: .milliseconds(600))
            #expect(disk.statistics().entryCount < urls.count)
        }
    }

    @Test("A cache-key hook maps signed URLs of one image to one entry")
    func cacheKeyNormalization() async throws {
        let root = FeedTestSupport.temporaryDirectory("keys")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            try await HTTPClient.withHTTPClient { client in
                let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
                var configuration = ImagePipeline.Configuration()
                configuration.cacheKey = { url in
                    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                        return url.absoluteString
                    }
                    let kept = (components.queryItems ?? []).filter { $0.name != "signature" }
                    components.queryItems = kept.isEmpty ? nil : kept
                    return components.string ?? url.absoluteString
                }
                let pipeline = ImagePipeline(loader: client, disk: disk, configuration: configuration)
                let base = ImagePipelineTests.imageURL(server, "img-020.jpg")
                let first = try await pipeline.image(for: base.appending(queryItems: [URLQueryItem(name: "signature", value: "a")]))
                let second = try await pipeline.image(for: base.appending(queryItems: [URLQueryItem(name: "signature", value: "b")]))
                #expect(first.cacheKey == second.cacheKey)
                #expect(second.source == .memory)
                #expect(server.requestCount(pathPrefix: "/images/") == 1)
            }
        }
    }
}
