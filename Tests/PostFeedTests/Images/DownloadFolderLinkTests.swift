import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// Issue 29: streamed image downloads are made, adopted and removed by name through the
/// cache's open `.tmp`, so a link put in place of `.tmp` while the cache is open is never
/// followed: nothing is created or removed where it points, and the fetch either succeeds
/// or fails with one line naming the link.
@Suite("Image downloads and a .tmp swapped for a link")
struct DownloadFolderLinkTests {
    /// How `.tmp` is replaced: removed, or moved away (the old folder still exists).
    enum Swap: String, CaseIterable, CustomTestStringConvertible {
        case removed, movedAway
        var testDescription: String { rawValue }
    }

    /// `<base>/outside/` with one old download-like file in it, and its listing and bytes.
    private static func outsideFolder(in base: URL) throws -> (URL, [String: Data]) {
        let outside = base.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let sentinel = outside.appendingPathComponent(".download-precious")
        try Data("precious".utf8).write(to: sentinel)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-86_400 * 30)], ofItemAtPath: sentinel.path)
        // An old stamp on the folder: creating or removing a name in it sets it to now.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-86_400)], ofItemAtPath: outside.path)
        return (outside, contents(of: outside))
    }

    /// Its names and their bytes, and the folder's own modification time, which any name
    /// created or removed in it (even one removed again) changes.
    private static func contents(of folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        var status = stat()
        if lstat(folder.path, &status) == 0 {
            result["(folder mtime)"] = Data("\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)".utf8)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            result[name] = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
        }
        return result
    }

    @Test("fetching an image after .tmp became a link: nothing outside created or removed", arguments: Swap.allCases)
    func swappedTemporaryFolder(swap: Swap) async throws {
        let base = FeedTestSupport.temporaryDirectory("tmp-link")
        defer { try? FileManager.default.removeItem(at: base) }
        let (outside, before) = try Self.outsideFolder(in: base)
        let directory = base.appendingPathComponent("ImageCache", isDirectory: true)
        let cache = try DiskCache(directory: directory)
        let temporary = directory.appendingPathComponent(".tmp")

        try await RunningFixtureServer.withRunning { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) { client in
                let pipeline = ImagePipeline(loader: client, disk: cache)
                // Given: one image fetched through .tmp, so the cache has it open
                let first = try await pipeline.image(for: ImagePipelineTests.imageURL(server, "img-001.jpg"))
                #expect(first.source == .network)
                await cache.flush()

                // When: .tmp becomes a link to a folder outside the cache
                switch swap {
                case .removed: try FileManager.default.removeItem(at: temporary)
                case .movedAway: try FileManager.default.moveItem(at: temporary, to: base.appendingPathComponent("old-tmp"))
                }
                try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: outside.path)
                let outcome: String
                do {
                    let second = try await pipeline.image(for: ImagePipelineTests.imageURL(server, "img-002.jpg"))
                    outcome = "fetched from \(second.source)"
                } catch {
                    outcome = "\(error)"
                }
                await cache.flush()

                // Then: nothing created or removed outside; success or one line naming the link
                let after = Self.contents(of: outside)
                #expect(after == before, "\(outcome); outside was \(before.keys.sorted()), now \(after.keys.sorted()) (a name created or removed changes its mtime)")
                if !outcome.hasPrefix("fetched") {
                    #expect(outcome.contains("\(temporary.path) is a symbolic link; refused"), "\(outcome)")
                    #expect(!outcome.contains("\n"), "\(outcome)")
                }
                let stillLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: temporary.path)) == outside.path
                #expect(stillLink)
            }
        }
    }
}
