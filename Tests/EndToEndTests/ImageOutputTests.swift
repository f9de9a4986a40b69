import Foundation
import PostFeedServer
import Testing

/// `image --output` never destroys what is at the path: a link stays a link, a device or
/// a FIFO is written through, a folder gets `<id>.<ext>` inside it, and every failure
/// names the path and why.
@Suite("postfeed image --output: what is at the path")
struct ImageOutputTests {
    static let original = PostfeedProcess.packageRoot.appendingPathComponent("Fixtures/images/img-060.png")

    private func kind(_ path: URL) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path.path)[.type] as? FileAttributeType
    }

    @Test("a symbolic link stays a link and the file it names gets the image")
    func throughALink() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let target = sandbox.directory.appendingPathComponent("real.png")
            try Data("old".utf8).write(to: target)
            let link = sandbox.directory.appendingPathComponent("link.png")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.png")

            let run = try await sandbox.run(["image", "42", "--output", "link.png"], against: server)

            #expect(run.succeeded, "\(run)")
            #expect(try kind(link) == .typeSymbolicLink)
            #expect(try Data(contentsOf: target) == Data(contentsOf: Self.original))
        }
    }

    @Test("a FIFO is written through, not replaced")
    func throughAFIFO() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let fifo = sandbox.directory.appendingPathComponent("pipe")
            #expect(mkfifo(fifo.path, 0o644) == 0)
            // A reader on the FIFO, as a shell's `postfeed image 42 -o pipe & cat pipe` would be.
            let reader = Task.detached { () -> Data in
                let descriptor = open(fifo.path, O_RDONLY)
                guard descriptor >= 0 else { return Data() }
                defer { close(descriptor) }
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    guard count > 0 else { return data }
                    data.append(contentsOf: buffer[0..<count])
                }
            }

            let run = try await sandbox.run(["image", "42", "--output", "pipe"], against: server)

            #expect(run.succeeded, "\(run)")
            #expect(try kind(fifo) != .typeRegular)
            let received = await reader.value
            #expect(try received == Data(contentsOf: Self.original))
            #expect(run.standardOutput.isEmpty, "the summary goes to stderr when the bytes are the output: \(run)")
        }
    }

    @Test("a character device is written through, never replaced by a file")
    func throughADevice() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let link = sandbox.directory.appendingPathComponent("null")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")

            let direct = try await sandbox.run(["image", "42", "--output", "/dev/null"], against: server)
            let linked = try await sandbox.run(["image", "42", "--output", "null"], against: server)

            #expect(direct.succeeded && linked.succeeded, "\(direct)\n\(linked)")
            #expect(try kind(URL(fileURLWithPath: "/dev/null")) == .typeCharacterSpecial)
            #expect(try kind(link) == .typeSymbolicLink)
        }
    }

    @Test("a folder gets <id>.<ext> inside it; a folder that is not there is named, not created as a file")
    func folders() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            try FileManager.default.createDirectory(at: sandbox.directory.appendingPathComponent("pics"), withIntermediateDirectories: true)
            let into = try await sandbox.run(["image", "42", "--output", "pics"], against: server)
            #expect(into.succeeded, "\(into)")
            #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("pics/42.png").path))

            let missing = try await sandbox.run(["image", "42", "--output", "nowhere/"], against: server)
            #expect(missing.failed)
            #expect(missing.errorMessage?.contains("the folder nowhere/ does not exist") == true, "\(missing)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("nowhere").path))

            let deep = try await sandbox.run(["image", "42", "--output", "a/b/x.png"], against: server)
            #expect(deep.errorMessage?.contains("does not exist; create it first") == true, "\(deep)")

            try Data("x".utf8).write(to: sandbox.directory.appendingPathComponent("plain"))
            let underFile = try await sandbox.run(["image", "42", "--output", "plain/x.png"], against: server)
            #expect(underFile.errorMessage?.contains("plain is a file, not a folder") == true, "\(underFile)")
            let errorLines = underFile.errorLines.filter { $0.hasPrefix("Error:") }
            #expect(errorLines.count == 1, "\(underFile)")
        }
    }

    @Test("an extension that names another format is written as asked, with a warning")
    func wrongExtensionWarns() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let run = try await sandbox.run(["image", "42", "--output", "photo.jpg"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.contains("photo.jpg holds a PNG image"), "\(run)")
        }
    }

    /// Issue 32, item 1: ids are opaque strings, so a number beyond 64 bits is an id (it was
    /// "out of range"): the backend is asked, and the message quotes it.
    @Test("'--' before the id is no second id; a number beyond 64 bits is an id the backend is asked for")
    func idArguments() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let dashes = try await PostfeedProcess.run(
                ["image", "--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path, "--output", "d.png", "--", "42"],
                in: sandbox.directory, standardInput: nil, outputFile: nil, environment: [:])
            #expect(dashes.succeeded, "\(dashes)")
            let huge = try await sandbox.run(["image", "99999999999999999999"], against: server)
            #expect(huge.failed)
            // The fixture backend, whose ids are integers, refuses it (HTTP 400); the client asked.
            #expect(huge.errorMessage?.contains(#"post "99999999999999999999" of "#) == true, "\(huge)")
            #expect(huge.errorMessage?.contains("/api/posts/99999999999999999999") == true, "\(huge)")
        }
    }

    /// `/proc/version` exists and is a file, but /proc takes no new file: the reason was the
    /// temporary file's ("No such file or directory"), for a file that is plainly there.
    /// `-` made a file named "-"; it is standard output, as for most Unix tools.
    @Test("--output - writes the bytes to standard output (a redirected file here) and the summary to stderr; no file named -")
    func dashIsStandardOutput() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let redirected = sandbox.directory.appendingPathComponent("redirected.png")
            FileManager.default.createFile(atPath: redirected.path, contents: nil)
            let run = try await sandbox.run(["image", "42", "--output", "-"], against: server, outputFile: redirected.path)
            #expect(run.succeeded, "\(run)")
            #expect(try Data(contentsOf: redirected) == Data(contentsOf: Self.original))
            #expect(run.standardError.contains("wrote /dev/stdout (PNG, "), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("-").path))
        }
    }

    /// show has no --output: its advice was "choose a writable place with --output".
    @Test("show --open where no file can be made names a way that works: another folder, or image --output")
    func showOpenInAFolderThatTakesNoFile() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // In /proc (no file can be made there, even by root), through a shell: the test
            // harness keeps its own files in the working directory.
            let (status, message) = try await PostfeedProcess.runThroughShell(
                "cd /proc && PATH=/nonexistent exec \"$0\" show 42 --open --images none --base-url \"$1\" --cache-dir \"$2\"",
                baseURL: server.baseURL, cacheRoot: sandbox.cacheRoot)
            #expect(status == 1, "\(message)")
            #expect(message.contains("cannot create a file in /proc"), "\(message)")
            #expect(message.contains("'postfeed image 42 --output FILE'"), "\(message)")
            #expect(!message.contains("choose a writable place with --output"), "\(message)")
        }
    }

    @Test("a file in a folder that takes no new file: the folder named as the reason, the file untouched")
    func folderThatTakesNoNewFile() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let before = try String(contentsOfFile: "/proc/version", encoding: .utf8)
            let run = try await sandbox.run(["image", "42", "--output", "/proc/version"], against: server)
            #expect(run.failed)
            let message = run.errorMessage ?? ""
            #expect(message.contains("cannot write /proc/version: cannot create a file in /proc"), "\(run)")
            #expect(message.contains("choose a writable place with --output"), "\(run)")
            #expect(try String(contentsOfFile: "/proc/version", encoding: .utf8) == before)
        }
    }
}
