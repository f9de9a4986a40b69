import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("ImagePipeline: memory → disk → network against the fixture backend")
struct ImagePipelineTests {
    /// A pipeline over a real client and a disk cache in a temporary folder.
    static func withPipeline<T>(
        server configuration: FixtureServerConfiguration = FixtureServerConfiguration(),
        _ body: (ImagePipeline, RunningFixtureServer, DiskCache, HTTPClient) async throws -> T
    ) async throws -> T {
        let root = FeedTestSupport.temporaryDirectory("images")
        defer { try? FileManager.default.removeItem(at: root) }
        return try await RunningFixtureServer.withRunning(configuration) { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
                let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
                let pipeline = ImagePipeline(loader: client, disk: disk)
                return try await body(pipeline, server, disk, client)
            }
        }
    }

    static func imageURL(_ server: RunningFixtureServer, _ name: String = "img-001.jpg") -> URL {
        server.baseURL.appendingPathComponent("images").appendingPathComponent(name)
    }

    @Test("Memory, then disk, then network; results stored back into both")
    func layers() async throws {
        try await Self.withPipeline { pipeline, server, disk, client in
            let url = Self.imageURL(server)
            let first = try await pipeline.image(for: url)
            #expect(first.source == .network)
            #expect(first.info.width > 0 && first.info.height > 0)
            #expect(disk.entry(forKey: first.cacheKey) != nil)
            let second = try await pipeline.image(for: url)
            #expect(second.source == .memory)
            // A new pipeline on the same disk cache: a disk hit, no request.
            let requests = server.requestCount(pathPrefix: "/images/")
            let fresh = ImagePipeline(loader: client, disk: disk)
            let third = try await fresh.image(for: url)
            #expect(third.source == .disk)
            #expect(third.data == first.data)
            #expect(server.requestCount(pathPrefix: "/images/") == requests)
        }
    }

    @Test("100 concurrent requests for one URL make exactly one transfer")
    func coalescing() async throws {
        try await Self.withPipeline(server: FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(100)))) { pipeline, server, _, _ in
            let url = Self.imageURL(server, "img-002.jpg")
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await pipeline.image(for: url).data.count } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(sizes.count == 100)
            #expect(Set(sizes).count == 1)
            #expect(server.requestCount(pathPrefix: "/images/") == 1)
        }
    }

    @Test("A body that is not an image is rejected with a clear error and never cached")
    func rejectsNonImages() async throws {
        try await Self.withPipeline(server: FixtureServerConfiguration(enablesTestRoutes: true)) { pipeline, server, disk, _ in
            let url = server.baseURL.appendingPathComponent("test/headers")
            let error = await #expect(throws: ImagePipelineError.self) { try await pipeline.image(for: url) }
            #expect(error?.code == .notAnImage)
            #expect(error?.description.contains(url.absoluteString) == true)
            #expect(disk.entry(forKey: ImagePipeline.defaultCacheKey(url)) == nil)
            #expect(disk.statistics().entryCount == 0)
        }
    }

    @Test("An expired entry is revalidated: 304 refreshes it without a body")
    func revalidation() async throws {
        try await Self.withPipeline(server: FixtureServerConfiguration(imageMaxAge: 0)) { _, server, disk, client in
            let url = Self.imageURL(server, "img-003.png")
            let first = try await ImagePipeline(loader: client, disk: disk).image(for: url)
            #expect(first.source == .network)
            // A new pipeline (empty memory) finds the disk entry expired (max-age=0).
            let second = try await ImagePipeline(loader: client, disk: disk).image(for: url)
            #expect(second.source == .revalidated)
            #expect(second.data == first.data)
            let conditional = server.recordedRequests.last { $0.path == url.path }
            let sentIfNoneMatch = conditional?.headers.contains { $0.key.lowercased() == "if-none-match" }
            #expect(sentIfNoneMatch == true, "\(String(describing: conditional))")
        }
    }

    @Test("When the network fails, a stale entry is served and marked stale")
    func staleOnFailure() async throws {
        let root = FeedTestSupport.temporaryDirectory("stale")
        defer { try? FileManager.default.removeItem(at: root) }
        let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
        let url = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(imageMaxAge: 0)) { server in
            let url = Self.imageURL(server, "img-004.jpg")
            try await HTTPClient.withHTTPClient { client in
                _ = try await ImagePipeline(loader: client, disk: disk).image(for: url)
            }
            return url
        }
        // The server is gone; the entry is expired.
        try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
            let image = try await ImagePipeline(loader: client, disk: disk).image(for: url)
            #expect(image.isStale)
            #expect(image.source == .disk)
        }
    }

    @Test("Sniffing reads PNG and JPEG dimensions and refuses HTML")
    func sniffing() throws {
        let fixtures = FixtureLocator.fixturesDirectory().appendingPathComponent("images")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        let firstPNG = names.first { $0.hasSuffix(".png") }
        let png = try #require(firstPNG)
        let firstJPEG = names.first { $0.hasSuffix(".jpg") }
        let jpeg = try #require(firstJPEG)
        let pngInfo = try #require(ImageInfo(sniffing: Data(contentsOf: fixtures.appendingPathComponent(png))))
        #expect(pngInfo.format == .png)
        let jpegInfo = try #require(ImageInfo(sniffing: Data(contentsOf: fixtures.appendingPathComponent(jpeg))))
        #expect(jpegInfo.format == .jpeg)
        #expect(jpegInfo.width > 0 && jpegInfo.height > 0)
        #expect(ImageInfo(sniffing: Data("<!doctype html><html>error</html>".utf8)) == nil)
        #expect(ImageInfo(sniffing: Data([0x89, 0x50, 0x4E, 0x47])) == nil, "a truncated header is not an image")
        let gif = Data("GIF89a".utf8) + Data([0x40, 0x01, 0xF0, 0x00])
        #expect(ImageInfo(sniffing: gif) == ImageInfo(format: .gif, width: 320, height: 240))
    }
}
