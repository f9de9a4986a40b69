import Foundation
import PostFeedServer

/// One test's private world: a temporary working directory with the cache root inside it
/// (`<sandbox>/cache`), removed when released.
final class Sandbox: Sendable {
    let directory: URL
    /// The `--cache-dir` every run of this test gets.
    let cacheRoot: URL

    init(_ label: String = #function) throws {
        let name = "postfeed-e2e-" + label.filter { $0.isLetter || $0.isNumber }.prefix(40) + "-" + UUID().uuidString
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
            .resolvingSymlinksInPath()
        cacheRoot = directory.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Running postfeed

    /// Runs `postfeed <arguments> --cache-dir <cacheRoot>` in the sandbox, with `environment`
    /// added to the child's.
    func run(
        _ arguments: [String], standardInput: Data? = nil, outputFile: String? = nil, environment: [String: String] = [:]
    ) async throws -> PostfeedResult {
        try await PostfeedProcess.run(
            arguments + ["--cache-dir", cacheRoot.path], in: directory, standardInput: standardInput, outputFile: outputFile,
            environment: environment)
    }

    /// Runs a feed command against `server`: `postfeed <arguments> --base-url <server> --cache-dir <cacheRoot>`.
    func run(
        _ arguments: [String], against server: RunningFixtureServer, standardInput: Data? = nil, outputFile: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> PostfeedResult {
        try await run(
            arguments + ["--base-url", server.baseURL.absoluteString], standardInput: standardInput, outputFile: outputFile,
            environment: environment)
    }

    // MARK: Files

    var stateDirectory: URL { cacheRoot.appendingPathComponent("State", isDirectory: true) }
    var imageCacheDirectory: URL { cacheRoot.appendingPathComponent("ImageCache", isDirectory: true) }
    var pageCacheDirectory: URL { cacheRoot.appendingPathComponent("PageCache", isDirectory: true) }
    var infiniteStateFile: URL { stateDirectory.appendingPathComponent("infinite-scroll-state.json") }
    var pagedStateFile: URL { stateDirectory.appendingPathComponent("pagination-state.json") }

    /// Entry files of a disk cache: `<2 hex>/<64 hex>`, nothing else (no lock, no temporaries).
    func cacheEntries(in directory: URL) -> [URL] {
        regularFiles(under: directory).filter { url in
            let name = url.lastPathComponent
            let folder = url.deletingLastPathComponent().lastPathComponent
            return name.count == 64 && name.allSatisfy(\.isHexDigit) && folder.count == 2 && name.hasPrefix(folder)
        }
    }

    /// Files set aside as `<name>.corrupt-<time>` in `State/`.
    var corruptStateFiles: [URL] {
        regularFiles(under: stateDirectory).filter { $0.lastPathComponent.contains(".corrupt-") }
    }

    /// Every regular file under `directory`, sorted by path.
    func regularFiles(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The bytes of every file under the cache root (paths relative to it), to prove a
    /// failed run changed nothing. Lock files are left out: opening a cache may touch them.
    func snapshot() -> [String: Data] {
        var result: [String: Data] = [:]
        let prefix = cacheRoot.standardizedFileURL.path + "/"
        for file in regularFiles(under: cacheRoot) where !file.lastPathComponent.hasSuffix("lock") {
            let relative = file.path.hasPrefix(prefix) ? String(file.path.dropFirst(prefix.count)) : file.path
            result[relative] = try? Data(contentsOf: file)
        }
        return result
    }

    /// The snapshot of `State/` alone.
    func stateSnapshot() -> [String: Data] {
        snapshot().filter { $0.key.hasPrefix("State/") }
    }

    /// Reads a state file as a JSON object.
    func stateJSON(_ file: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: file)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw EndToEndError("\(file.path) is not a JSON object")
        }
        return object
    }
}
