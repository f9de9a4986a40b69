import Foundation
import PostFeedServer
import Testing

/// Issue 29 through the built binary: links planted in a cache folder are refused by
/// name, and nothing they point to is touched.
@Suite("postfeed and symbolic links in the cache")
struct CacheSymbolicLinkTests {
    /// `20250501T100000Z`, the state store's set-aside stamp.
    static func utcStamp() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }

    /// `<sandbox>/project/` with `README.md` and `main.c` an hour old, and
    /// `Cache/PageCache/.tmp -> ../..` (the project folder itself), as in the issue.
    private func plantIssueCase(_ sandbox: Sandbox) throws -> (project: URL, files: [URL: Data]) {
        let project = sandbox.directory.appendingPathComponent("project", isDirectory: true)
        let pageCache = project.appendingPathComponent("Cache/PageCache", isDirectory: true)
        try FileManager.default.createDirectory(at: pageCache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pageCache.appendingPathComponent(".tmp").path, withDestinationPath: "../..")
        var files: [URL: Data] = [:]
        for name in ["README.md", "main.c"] {
            let file = project.appendingPathComponent(name)
            let bytes = Data("precious \(name)\n".utf8)
            try bytes.write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: file.path)
            files[file] = bytes
        }
        return (project, files)
    }

    @Test("cache stats in a folder whose ./Cache/PageCache/.tmp links two levels up: refused by name, nothing deleted")
    func issueCaseThroughWorkingDirectory() async throws {
        let sandbox = try Sandbox()
        let (project, files) = try plantIssueCase(sandbox)

        let run = try await PostfeedProcess.run(["cache", "stats"], in: project)

        #expect(run.failed, "\(run)")
        let link = project.appendingPathComponent("Cache/PageCache/.tmp").path
        #expect(run.standardError.contains("\(link) is a symbolic link; refused"), "\(run)")
        for (file, bytes) in files {
            let now = try? Data(contentsOf: file)
            #expect(now == bytes, "\(file.lastPathComponent) is gone or changed: \(run)")
        }
    }

    @Test("the same with --cache-dir, for every cache command")
    func issueCaseThroughCacheDirectory() async throws {
        let sandbox = try Sandbox()
        let (project, files) = try plantIssueCase(sandbox)
        let root = project.appendingPathComponent("Cache").path

        for command in [["cache", "stats"], ["cache", "verify"], ["cache", "prune"], ["cache", "clear"], ["state", "reset"]] {
            let run = try await PostfeedProcess.run(command + ["--cache-dir", root], in: sandbox.directory)
            if command[0] == "cache" {
                #expect(run.failed, "\(run)")
                #expect(run.standardError.contains("PageCache/.tmp is a symbolic link; refused"), "\(run)")
            }
            for (file, bytes) in files {
                let now = try? Data(contentsOf: file)
                #expect(now == bytes, "\(command): \(file.lastPathComponent) is gone or changed: \(run)")
            }
        }
    }

    @Test("a damaged popularity order set aside where earlier copies already are: none is overwritten")
    func popularitySetAsideNeverOverwrites() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let state = sandbox.stateDirectory
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let file = state.appendingPathComponent("popularity-order-state.json")
            try Data("{damaged".utf8).write(to: file)
            // Earlier set-asides under every name the next two minutes could give, in the
            // epoch-second and the UTC-time spelling.
            let earlier = Data("an earlier damaged copy".utf8)
            let now = Int(Date().timeIntervalSince1970)
            var planted: [URL] = []
            let stamp = Self.utcStamp()
            for second in now - 2...now + 120 {
                let utc = stamp.string(from: Date(timeIntervalSince1970: TimeInterval(second)))
                for suffix in ["\(second)", utc] {
                    let name = state.appendingPathComponent("popularity-order-state.json.corrupt-\(suffix)")
                    try earlier.write(to: name)
                    planted.append(name)
                }
            }

            let run = try await sandbox.run(["list", "--sort", "popularity", "--no-images"], against: server)

            #expect(run.succeeded, "\(run)")
            for name in planted {
                let bytes = try? Data(contentsOf: name)
                #expect(bytes == earlier, "\(name.lastPathComponent) was overwritten: \(run)")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
            let copies = names.filter { $0.hasPrefix("popularity-order-state.json.corrupt-") }
            let damaged = copies.filter { (try? Data(contentsOf: state.appendingPathComponent($0))) == Data("{damaged".utf8) }
            #expect(damaged.count == 1, "\(copies.sorted())")
        }
    }
}
