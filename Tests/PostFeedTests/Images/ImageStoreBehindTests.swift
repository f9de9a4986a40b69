import Foundation
import PostFeed
import PostFeedCache
import PostFeedServer
import Testing

/// `ImagePipeline.Configuration.storesBehind` (what `postfeed page` uses): an image is
/// returned before its disk store, and the client's shutdown waits for the stores, so the
/// next process finds every image on disk, whole.
@Suite("Image stores behind the load")
struct ImageStoreBehindTests {
    @Test("with storesBehind, every image fetched is on disk, whole, once the client has shut down")
    func storedByShutdown() async throws {
        let root = FeedTestSupport.temporaryDirectory("behind")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            var configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            configuration.images.storesBehind = true
            let names = ["img-001.jpg", "img-002.jpg", "img-003.png", "img-005.jpg", "img-006.png", "img-010.jpg"]
            let urls = names.map { server.baseURL.appendingPathComponent("images").appendingPathComponent($0) }
            let loaded = try await FeedClient.withFeedClient(configuration) { client in
                try await withThrowingTaskGroup(of: ImageResponse.self) { group in
                    for url in urls { group.addTask { try await client.images.image(for: url) } }
                    var images: [ImageResponse] = []
                    for try await image in group { images.append(image) }
                    return images
                }
            }
            #expect(loaded.count == names.count)
            let sources = Set(loaded.map(\.source))
            #expect(sources == [.network])

            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            for image in loaded {
                let stored = disk.entry(forKey: image.cacheKey)?.data
                #expect(stored == image.data, "\(image.url) not stored whole")
            }
            let temporary = root.appendingPathComponent("ImageCache").appendingPathComponent(".tmp")
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
                .filter { $0.hasPrefix(".download") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }
}
