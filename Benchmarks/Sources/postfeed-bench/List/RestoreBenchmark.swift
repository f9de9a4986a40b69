import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer

/// `postfeed-bench list`, part 1: how fast the real `postfeed list` puts a reader back at post
/// 10,000 from saved state and warm caches, against getting there from the network.
///
/// Every run is a fresh `postfeed list --no-images --pages 1 --base-url … --cache-dir …`
/// process, timed from outside until its first line on standard output (the first post of
/// the page it prints) and until it exits.
///
/// - **warm**: the state file holds 10,000 loaded ids (anchor on post 9,981, the top of the
///   page a previous `list` printed last), the page cache holds pages 1…501, fresh, and the
///   image cache holds the images. The state file is put back before every run, since each
///   run saves its new place.
/// - **cold, page 1**: the same command with no state and empty caches. It prints page 1:
///   not the same place, listed for completeness.
/// - **cold, rebuild**: no state, empty caches, `--pages 501`: what it takes to reach post
///   10,001 from the network (500 pages of 20 to rebuild the 10,000-id list, then the page
///   after), timed until post 10,001's line is printed (`list` prints each page as it
///   loads). This is the comparison for the ≥ 5× target.
enum RestoreBenchmark {
    struct Result {
        /// `postfeed --version`: process start-up alone, the floor under every variant.
        var floor: [ChildProcess.Outcome]
        var warm: [ChildProcess.Outcome]
        var coldFirstPage: [ChildProcess.Outcome]
        var coldRebuild: [ChildProcess.Outcome]
        var warmFirstLine: String
        var hyperfineMedian: Double?
    }

    static func run(
        server: DetachedFixtureServer, postfeed: String, loadedPosts: Int, pageSize: Int, runs: Int, rebuildRuns: Int,
        scratch: ScratchDirectory
    ) async throws -> Result {
        let baseURL = server.baseURL.absoluteString
        let warmRoot = scratch.appending("restore-warm")
        try await prepareWarmCaches(baseURL: server.baseURL, root: warmRoot, loadedPosts: loadedPosts, pageSize: pageSize)
        let stateFile = ListStateStore(cacheRoot: warmRoot).fileURL(for: .infinite)
        let savedState = scratch.appending("restore-state.json", isDirectory: false)
        try FileManager.default.copyItem(at: stateFile, to: savedState)
        let pagesToPlace = loadedPosts / pageSize + 1

        func list(_ root: URL, pages: Int, marker: String? = nil) -> ChildProcess {
            ChildProcess(
                executable: postfeed,
                arguments: ["list", "--no-images", "--pages", "\(pages)", "--page-size", "\(pageSize)",
                            "--base-url", baseURL, "--cache-dir", root.path],
                marker: marker)
        }
        func restoreState() throws {
            try? FileManager.default.removeItem(at: stateFile)
            try FileManager.default.copyItem(at: savedState, to: stateFile)
        }
        let expectedFirst = "\(loadedPosts + 1). "

        // Interleaved so that drift on a shared machine reaches every variant alike.
        var warm: [ChildProcess.Outcome] = [], coldFirstPage: [ChildProcess.Outcome] = [], floor: [ChildProcess.Outcome] = []
        var warmFirstLine = ""
        let version = ChildProcess(executable: postfeed, arguments: ["--version"])
        for run in 0..<(runs + 1) {
            let floorRun = try await version.runChecked("postfeed --version")
            try restoreState()
            let warmRun = try await list(warmRoot, pages: 1).runChecked("warm postfeed list")
            warmFirstLine = warmRun.firstLineText
            guard warmFirstLine.trimmingCharacters(in: .whitespaces).hasPrefix(expectedFirst) else {
                throw BenchError("warm postfeed list printed '\(warmFirstLine)' first, expected post \(loadedPosts + 1)")
            }
            let coldRoot = scratch.appending("restore-cold-\(run)")
            let coldRun = try await list(coldRoot, pages: 1).runChecked("cold postfeed list")
            try? FileManager.default.removeItem(at: coldRoot)
            guard coldRun.firstLineText.trimmingCharacters(in: .whitespaces).hasPrefix("1. ") else {
                throw BenchError("cold postfeed list printed '\(coldRun.firstLineText)' first, expected post 1")
            }
            if run > 0 {  // the first round warms the binary and the file system
                floor.append(floorRun)
                warm.append(warmRun)
                coldFirstPage.append(coldRun)
            }
        }
        var coldRebuild: [ChildProcess.Outcome] = []
        for run in 0..<rebuildRuns {
            let root = scratch.appending("restore-rebuild-\(run)")
            let outcome = try await list(root, pages: pagesToPlace, marker: "\n" + expectedFirst)
                .runChecked("cold postfeed list --pages \(pagesToPlace)")
            try? FileManager.default.removeItem(at: root)
            guard outcome.markerSeen != nil else {
                throw BenchError("cold postfeed list --pages \(pagesToPlace) did not reach post \(loadedPosts + 1)")
            }
            coldRebuild.append(outcome)
        }
        let hyperfine = try await hyperfineMedian(command: list(warmRoot, pages: 1), prepare: (savedState, stateFile), scratch: scratch)
        try restoreState()
        return Result(floor: floor, warm: warm, coldFirstPage: coldFirstPage, coldRebuild: coldRebuild,
                      warmFirstLine: warmFirstLine, hyperfineMedian: hyperfine)
    }

    /// Loads `loadedPosts` posts through the infinite feed (pages land in the page cache),
    /// warms the page after them, and saves the state with the anchor on the first post of
    /// the last page, as `postfeed list` leaves it after printing that page.
    private static func prepareWarmCaches(baseURL: URL, root: URL, loadedPosts: Int, pageSize: Int) async throws {
        let backend = try BackendDescription.preset("postfeed", baseURL: baseURL)
        var configuration = FeedClient.Configuration(backend: backend, pageSize: pageSize, cacheLocation: CacheLocation(root: root))
        configuration.infinite.imagePrefetchCount = 0
        try await FeedClient.withFeedClient(configuration) { client in
            while await client.infinite.count < loadedPosts {
                guard try await client.infinite.loadMore() > 0 else {
                    throw BenchError("the fixture backend ran out of posts before \(loadedPosts)")
                }
            }
            // Warm the image cache too, as a reader's would be ("warm caches"); `list
            // --no-images` reads no image, so this changes nothing it measures. The fixture
            // set reuses a few dozen images, all of them among its first few hundred posts.
            let sample = try await client.infinite.posts(in: 0..<min(loadedPosts, 500))
            let images = await client.images(for: sample)
            if let failure = images.compactMap({ $0?.error }).first {
                throw BenchError("warming the image cache failed: \(failure.message)")
            }
            guard let next = client.repository.pageKey(forPageNumber: loadedPosts / pageSize + 1) else {
                throw BenchError("the postfeed preset cannot address page \(loadedPosts / pageSize + 1)")
            }
            _ = try await client.repository.page(next, cachePolicy: .useCache, priority: .high)
            try await client.saveInfinite(anchorIndex: max(0, loadedPosts - pageSize))
        }
    }

    /// The median exit time hyperfine measures for the warm command, when hyperfine is
    /// installed (a cross-check of this harness; it times the exit, not the first line).
    private static func hyperfineMedian(command: ChildProcess, prepare: (saved: URL, state: URL), scratch: ScratchDirectory) async throws -> Double? {
        let candidates = ["/usr/bin/hyperfine", "/usr/local/bin/hyperfine"]
        guard let hyperfine = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let export = scratch.appending("hyperfine.json", isDirectory: false)
        let commandLine = ([command.executable] + command.arguments).map(shellQuoted).joined(separator: " ")
        let run = ChildProcess(
            executable: hyperfine,
            arguments: ["--style", "none", "--warmup", "2", "--runs", "20",
                        "--prepare", "cp \(shellQuoted(prepare.saved.path)) \(shellQuoted(prepare.state.path))",
                        "--export-json", export.path, commandLine])
        let outcome = try await run.run()
        guard outcome.succeeded,
              let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: export)) as? [String: Any],
              let results = json["results"] as? [[String: Any]], let median = results.first?["median"] as? Double
        else { return nil }
        return median
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
