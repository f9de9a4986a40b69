import SuiteSupport
import Foundation
import PostFeedServer
import Testing

@Suite("postfeed image")
struct ImageCommandTests {
    /// What the `file` command says of `file`.
    static func fileType(_ file: URL) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["file", "--brief", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("image 42 writes ./42.png, the original bytes, a PNG to `file`")
    func writesTheOriginalBesideTheReader() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["image", "42"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            let written = sandbox.directory.appendingPathComponent("42.png")
            #expect(FileManager.default.fileExists(atPath: written.path), "\(run)")
            let type = try Self.fileType(written)
            #expect(type.hasPrefix("PNG image data"), "\(type)")
            let original = PostfeedProcess.packageRoot.appendingPathComponent("Fixtures/images/img-060.png")
            #expect(try Data(contentsOf: written) == Data(contentsOf: original))
            let mode = try FileManager.default.attributesOfItem(atPath: written.path)[.posixPermissions] as? Int
            let readBits = mode.map { $0 & 0o044 }
            #expect(readBits == 0o044, "readable by others like any file: \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test("--output names the file; the extension of the default follows the format")
    func outputAndExtensions() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When: a few posts' images with the default name
            var kinds: [String: String] = [:]
            for id in [1, 2, 3, 4, 6, 7] {
                let run = try await sandbox.run(["image", "\(id)"], against: server)
                #expect(run.succeeded, "\(run)")
                let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
                let imageFile = names.first { $0.hasPrefix("\(id).") }
                let written = try #require(imageFile, "\(names)")
                let ext = (written as NSString).pathExtension
                kinds[ext] = try Self.fileType(sandbox.directory.appendingPathComponent(written))
            }
            // Then: each extension is what `file` finds
            #expect(!kinds.isEmpty)
            for (ext, type) in kinds {
                switch ext {
                case "png": #expect(type.hasPrefix("PNG image data"), "\(type)")
                case "jpg": #expect(type.hasPrefix("JPEG image data"), "\(type)")
                default: Issue.record("unexpected extension \(ext): \(type)")
                }
            }

            // When: --output
            let run = try await sandbox.run(["image", "42", "--output", "picture.png"], against: server)
            #expect(run.succeeded, "\(run)")
            let picture = sandbox.directory.appendingPathComponent("picture.png")
            #expect(try Self.fileType(picture).hasPrefix("PNG image data"))
        }
    }

    @Test("image of a post without one fails saying so")
    func postWithoutImage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["image", "5"], against: server)
            #expect(!run.succeeded, "\(run)")
            #expect(run.standardError.contains("post 5 has no image"), "\(run)")
            let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
            let wroteNoFile = names.allSatisfy { !$0.hasPrefix("5.") }
            #expect(wroteNoFile, "\(names)")
        }
    }

    @Test("image of a post whose image URL is empty fails saying so, names no address and fetches nothing")
    func emptyImageURL() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.setImageURL(" ", ofPost: 1)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["image", "1"], against: server)
            #expect(!run.succeeded, "\(run)")
            #expect(run.standardError.contains("post 1 has no image: the post's image URL is empty"), "\(run)")
            #expect(!run.standardError.contains(server.baseURL.absoluteString), "not the backend's address: \(run)")
            #expect(server.requestCount(pathPrefix: "/images/") == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
            let wroteNoFile = names.allSatisfy { !$0.hasPrefix("1.") }
            #expect(wroteNoFile, "\(names)")
        }
    }

    /// A text that is no URL at all is not "no image": the post names one, which cannot be
    /// fetched (it said "post 1 has no image" once image URLs became optional).
    @Test("image of a post whose image URL is no URL says it could not be loaded, quoting it")
    func imageURLThatIsNoURL() async throws {
        let sandbox = try Sandbox()
        let fixtures = try FixtureCopy()
        try fixtures.setImageURL("http://[bad", ofPost: 1)
        try await RunningFixtureServer.withRunning(fixtures.configuration()) { server in
            let run = try await sandbox.run(["image", "1"], against: server)
            #expect(!run.succeeded, "\(run)")
            #expect(run.standardError.contains("the image of post 1 could not be loaded"), "\(run)")
            #expect(run.standardError.contains("http://[bad"), "\(run)")
            #expect(!run.standardError.contains("has no image"), "\(run)")
        }
    }
}
