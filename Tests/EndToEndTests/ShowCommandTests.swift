import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed show")
struct ShowCommandTests {
    @Test("show 42 prints the post in full with its cached image's path and size")
    func showsOnePost() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["show", "42"], against: server)

            // Then: title, author line, the whole body, the image
            #expect(run.succeeded, "\(run)")
            let lines = run.outputLines
            #expect(lines.first == "#42  Field guide: retry loops and code reviews", "\(run)")
            let hasByline = lines.contains { $0.hasPrefix("Ethan Brooks · 2025-02-05 · popularity 1.00 · id 42") }
            #expect(hasByline, "\(run)")
            let body = lines.joined(separator: " ")
            #expect(body.contains("Somewhere between a borrowed kitchen and home, the plan quietly changed."), "\(run)")
            #expect(body.contains("start smaller than you think you need to."), "\(run)")
            #expect(lines.contains("image: \(server.baseURL.absoluteString)/images/img-060.png"), "\(run)")

            // Then: the image line names a cache file that exists under the cache root
            let firstImageLine = lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("image ") }
            let imageLine = try #require(firstImageLine, "\(run)")
            let size = try #require(imageLine.firstMatch(of: /image (\d+)×(\d+) png at (\S+)/), "\(imageLine)")
            #expect((Int(size.1) ?? 0) > 0 && (Int(size.2) ?? 0) > 0)
            let path = String(size.3)
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : sandbox.directory.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path)")
            #expect(file.standardizedFileURL.path.hasPrefix(sandbox.imageCacheDirectory.path), "\(file.path)")
            #expect(sandbox.cacheEntries(in: sandbox.imageCacheDirectory).map(\.path).contains(file.standardizedFileURL.path))
        }
    }

    @Test("show --json has the post and the image's size and file")
    func json() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["show", "42", "--json"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            let shown = try ShowJSON.decode(run.standardOutput, from: "show 42 --json")
            #expect(shown.post.id == 42)
            #expect(shown.post.body?.hasPrefix("Somewhere between") == true)
            let image = try #require(shown.image)
            #expect(image.format == "png")
            #expect((image.width ?? 0) > 0 && (image.height ?? 0) > 0)
            let path = try #require(image.path)
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : sandbox.directory.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path)")
        }
    }

    @Test("show of a post without an image says so")
    func postWithoutImage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["show", "5"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.last == "image: none", "\(run)")
        }
    }

    @Test("show 99999 fails naming the post")
    func missingPost() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["show", "99999"], against: server)

            // Then
            expectOneLineError(run, naming: ["99999"])
            #expect(run.standardOutput.isEmpty, "\(run)")
        }
    }

    @Test("show of a post whose image URL is empty says so and names no address, in text and --json")
    func emptyImageURL() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.setImageURL("", ofPost: 1)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            // When
            let text = try await sandbox.run(["show", "1"], against: server)
            let json = try await sandbox.run(["show", "1", "--json"], against: server)

            // Then
            #expect(text.succeeded, "\(text)")
            #expect(text.outputLines.last == "image: none (the post's image URL is empty)", "\(text)")
            #expect(!text.standardOutput.contains(server.baseURL.absoluteString), "not the backend's address: \(text)")
            #expect(json.succeeded, "\(json)")
            let shown = try ShowJSON.decode(json.standardOutput, from: "show 1 --json")
            let image = try #require(shown.image, "\(json)")
            #expect(image.url == nil, "\(json)")
            #expect(image.error == "the post's image URL is empty", "\(json)")
            #expect(server.requestCount(pathPrefix: "/images/") == 0)
        }
    }
}
