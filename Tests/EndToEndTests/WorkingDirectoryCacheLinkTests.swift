import Foundation
import PostFeedServer
import Testing

/// Issue 29: a `./Cache` that is a symbolic link (a cloned or unpacked folder can carry
/// one pointing anywhere) is never taken as the cache root implicitly: postfeed refuses in
/// one line naming it and telling how to use it on purpose. Named with `--cache-dir` or
/// `$POSTFEED_CACHE_DIR`, the same link is honoured.
@Suite("postfeed and a ./Cache that is a symbolic link")
struct WorkingDirectoryCacheLinkTests {
    /// `<sandbox>/project/Cache -> <sandbox>/elsewhere`, with one file in `elsewhere`.
    private func plant(_ sandbox: Sandbox) throws -> (project: URL, elsewhere: URL) {
        let project = sandbox.directory.appendingPathComponent("project", isDirectory: true)
        let elsewhere = sandbox.directory.appendingPathComponent("elsewhere", isDirectory: true)
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: elsewhere.appendingPathComponent("notes.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: project.appendingPathComponent("Cache").path, withDestinationPath: elsewhere.path)
        return (project, elsewhere)
    }

    private func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(
        "not picked up implicitly: refused in one line, nothing made where it points",
        arguments: [["cache", "stats"], ["cache", "clear"], ["state", "show"], ["list"]])
    func implicitLinkRefused(command: [String]) async throws {
        let sandbox = try Sandbox()
        let (project, elsewhere) = try plant(sandbox)
        try await withFixtureServer { server in
            let arguments = command == ["list"] ? command + ["--base-url", server.baseURL.absoluteString] : command

            let run = try await PostfeedProcess.run(arguments, in: project)

            #expect(run.status == 64, "\(run)")
            let lines = run.standardError.split(separator: "\n")
            #expect(lines.count <= 2, "\(run)")
            let first = lines.first.map(String.init) ?? ""
            #expect(first.contains("./Cache is a symbolic link to \(elsewhere.path)"), "\(run)")
            #expect(first.contains("--cache-dir Cache"), "\(run)")
            #expect(names(elsewhere) == ["notes.txt"], "\(run)")
            #expect(server.totalRequestCount == 0)
            let xdg = names(project.appendingPathComponent(".xdg-cache"))
            #expect(xdg.isEmpty, "the next default was used instead: \(xdg)")
        }
    }

    @Test("named with --cache-dir or $POSTFEED_CACHE_DIR, the link is honoured")
    func explicitLinkHonoured() async throws {
        let sandbox = try Sandbox()
        let (project, elsewhere) = try plant(sandbox)
        try await withFixtureServer { server in
            let list = try await PostfeedProcess.run(
                ["list", "--cache-dir", "Cache", "--base-url", server.baseURL.absoluteString], in: project)
            #expect(list.succeeded, "\(list)")
            #expect(names(elsewhere).contains("State"), "\(names(elsewhere))")

            let stats = try await PostfeedProcess.run(["cache", "stats"], in: project, environment: ["POSTFEED_CACHE_DIR": "Cache"])
            #expect(stats.succeeded, "\(stats)")
            #expect(names(elsewhere).contains("notes.txt"))
        }
    }
}
