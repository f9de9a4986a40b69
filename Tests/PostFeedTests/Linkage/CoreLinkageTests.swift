import Foundation
import PostFeedServer
import SuiteSupport
import Testing

/// The core (`PostFeed` alone) is what a service links: no terminal, image-decoding or Redis
/// library, and no thumbnail folder (issue 31, item 4). `postfeed-core-probe` is a program
/// on the `PostFeed` product only (Tests/CoreLinkProbe); `ldd` says what it links.
@Suite("The core product links no terminal, decoder or Redis library")
struct CoreLinkageTests {
    /// The shared objects a service on the core must not load: libchafa and glib (previews),
    /// the four image decoders, hiredis (the shared tier).
    static let forbidden = [
        "libchafa", "libglib-2.0", "libhiredis", "libwebp", "libwebpdemux", "libpng", "libturbojpeg", "libgif",
    ]

    @Test("ldd of a program on PostFeed alone lists none of the preview or Redis libraries")
    func probeLinksNoPreviewOrRedisLibrary() async throws {
        let probe = try Self.probe()
        let listing = try await Self.run(URL(fileURLWithPath: "/usr/bin/ldd"), [probe.path])
        #expect(listing.status == 0, "ldd failed: \(listing.output)")
        let libraries = listing.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(libraries.count > 3, "ldd listed \(libraries)")
        let linked = libraries.filter { line in Self.forbidden.contains { line.hasPrefix($0) } }
        #expect(linked.isEmpty, "the core links \(linked)")
    }

    @Test("a client without previews makes no ThumbnailCache folder")
    func noThumbnailFolderWithoutPreviews() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await Self.run(try Self.probe(), [root.path])
        #expect(result.status == 0, "\(result.output)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(folders.contains("ImageCache") && folders.contains("PageCache"))
        #expect(!folders.contains("ThumbnailCache"), "folders: \(folders)")
    }

    @Test("top-level code walks every page and reads two with readPages, on PostFeed alone")
    func probeWalksPagesFromTopLevelCode() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let result = try await Self.run(try Self.probe(), [root.path, server.baseURL.absoluteString])
            #expect(result.status == 0, "\(result.output)")
            // Every fixture post once, 10 per page.
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/posts.json")
            let total = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures)) as? [Any]).count
            #expect(result.output.hasPrefix("pages \((total + 9) / 10) posts \(total) handed 1,2"), "\(result.output)")
        }
    }

    /// `postfeed-core-probe`, built beside this test bundle (a dependency of the test target).
    static func probe() throws -> URL {
        var candidates: [URL] = []
        if let running = Bundle.main.executableURL {
            candidates.append(running.deletingLastPathComponent().appendingPathComponent("postfeed-core-probe"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/postfeed-core-probe"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ProbeNotFound(description: "postfeed-core-probe not found at \(candidates.map(\.path)); run `swift build --build-tests`")
        }
        return found
    }

    /// Runs `executable` to its end: exit status and standard output and error together.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

struct ProbeNotFound: Error, CustomStringConvertible {
    let description: String
}
