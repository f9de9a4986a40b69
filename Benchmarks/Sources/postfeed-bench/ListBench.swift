import ArgumentParser
import Foundation
import PostFeedHTTP
import PostFeedServer

extension PostFeedBench {
    /// `postfeed-bench list`: restore from state vs the network, and memory while scrolling.
    struct ListBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Benchmark restoring the list from state and scrolling a long feed; print Markdown tables.",
            discussion: """
                Generates a fixture set of --posts posts (with the real images) in a
                temporary folder and serves it in-process, then:
                  restore  the real 'postfeed list' (the built binary, --postfeed) back at
                           post 10,001 from saved state and warm caches, vs from empty caches
                  scroll   100,000 posts through FeedClient's infinite feed with 10 resident
                           pages, in a child process: peak RSS after 1,000 posts vs at the end

                Examples:
                  postfeed-bench list --postfeed ../.build/release/postfeed
                  postfeed-bench list --only restore --runs 20
                  postfeed-bench list --posts 20000 --scroll-posts 20000
                """)

        @Option(help: "Parts to run, comma-separated: restore, scroll.")
        var only: String = "restore,scroll"

        @Option(help: "The 'postfeed' binary the restore times; default: $POSTFEED_BIN, else ../.build/release/postfeed or .build/release/postfeed from the working directory.")
        var postfeed: String?

        @Option(help: "Posts in the generated fixture set (at least 10,000).")
        var posts: Int = 100_000

        @Option(name: .customLong("loaded-posts"), help: "Loaded ids in the saved state for the restore.")
        var loadedPosts: Int = 10_000

        @Option(help: "Timed runs of the warm and cold-page-1 commands; the median is reported.")
        var runs: Int = 10

        @Option(name: .customLong("rebuild-runs"), help: "Timed runs of the cold rebuild (hundreds of pages each).")
        var rebuildRuns: Int = 3

        @Option(name: .customLong("scroll-posts"), help: "Posts to scroll through.")
        var scrollPosts: Int = 100_000

        @Option(name: .customLong("resident-pages"), help: "maximumResidentPages of the infinite feed while scrolling.")
        var residentPages: Int = 10

        @Option(help: "Posts the reader advances per screen while scrolling.")
        var step: Int = 10

        /// The CLI's default page size, which `postfeed list` uses.
        static let pageSize = 20
        var pageSize: Int { Self.pageSize }

        func validate() throws {
            guard !parts.isEmpty, parts.isSubset(of: ["restore", "scroll"]) else {
                throw ValidationError("--only '\(only)': use restore, scroll (comma-separated).")
            }
            guard loadedPosts >= pageSize, loadedPosts % pageSize == 0 else {
                throw ValidationError("--loaded-posts must be a positive multiple of the page size (\(pageSize)).")
            }
            guard posts >= max(10_000, loadedPosts + pageSize) else {
                throw ValidationError("--posts must be at least 10,000 and above --loaded-posts.")
            }
            guard !parts.contains("scroll") || (1000...posts).contains(scrollPosts) else {
                throw ValidationError("--scroll-posts must be 1,000…--posts (\(posts)).")
            }
            guard runs >= 1, rebuildRuns >= 1, residentPages >= 1, step >= 1 else {
                throw ValidationError("--runs, --rebuild-runs, --resident-pages and --step must be at least 1.")
            }
        }

        var parts: Set<String> { Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }

        /// The `postfeed` executable to time: `--postfeed`, `$POSTFEED_BIN`, or a release build
        /// of the repository next to the working directory (`Benchmarks/` or the root).
        func postfeedExecutable() throws -> String {
            if let postfeed {
                guard FileManager.default.isExecutableFile(atPath: postfeed) else {
                    throw BenchError("--postfeed \(postfeed) is not an executable file")
                }
                return URL(fileURLWithPath: postfeed).standardizedFileURL.path
            }
            let candidates = [ProcessInfo.processInfo.environment["POSTFEED_BIN"], "../.build/release/postfeed", ".build/release/postfeed"]
            for case let candidate? in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate).standardizedFileURL.path
            }
            throw BenchError("no postfeed binary to time: build it (swift build -c release --product postfeed) and pass --postfeed PATH")
        }

        func run() async throws {
            let postfeedBinary = parts.contains("restore") ? try postfeedExecutable() : ""
            let scratch = try ScratchDirectory("list")
            defer { scratch.remove() }
            print("## postfeed-bench list\n")
            print("Machine: \(BenchMachine.description)\n")
            let fixtures = scratch.appending("fixtures")
            let clock = ContinuousClock()
            let generated = try clock.measure { try LargeFixtures.make(posts: posts, in: fixtures) }
            // Pages stay fresh for an hour: "warm caches" must not expire while the runs go on.
            let configuration = FixtureServerConfiguration(fixturesDirectory: fixtures, pageMaxAge: 3600)
            var server: DetachedFixtureServer?
            let started = try await clock.measure { server = try await RunningFixtureServer.startDetached(configuration) }
            guard let server else { throw BenchError("the fixture server did not start") }
            do {
                // An image the server cannot serve would turn every image prefetch into a miss.
                let probe = try await PostFeedBench.Fetch.imageURLs(from: server.baseURL, count: 1)[0]
                _ = try await HTTPClient.withHTTPClient { try await $0.get(probe).requireSuccess() }
            } catch {
                await server.shutdown()
                throw BenchError("the generated fixture set does not serve its images: \(error)")
            }
            print("Fixture set: \(posts) posts (posts.json generated in \(String(format: "%.1f", generated.seconds)) s, "
                  + "served in-process from \(String(format: "%.1f", started.seconds)) s after start), page size \(pageSize), page max-age 3600 s.\n")
            do {
                if parts.contains("restore") { try await runRestore(server: server, postfeed: postfeedBinary, scratch: scratch) }
                if parts.contains("scroll") { try await runScroll(server: server, scratch: scratch) }
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
        }

        // MARK: Parts

        private func runRestore(server: DetachedFixtureServer, postfeed: String, scratch: ScratchDirectory) async throws {
            let place = loadedPosts / pageSize + 1
            print("### Restore: `postfeed list --no-images --pages 1` back at post \(loadedPosts + 1), fresh process timed from outside (median of \(runs); rebuild median of \(rebuildRuns))\n")
            let result = try await RestoreBenchmark.run(
                server: server, postfeed: postfeed, loadedPosts: loadedPosts, pageSize: pageSize, runs: runs, rebuildRuns: rebuildRuns, scratch: scratch)
            func firstLine(_ outcomes: [ChildProcess.Outcome]) -> BenchSamples { BenchSamples(outcomes.compactMap { $0.firstLine?.seconds }) }
            func exit(_ outcomes: [ChildProcess.Outcome]) -> BenchSamples { BenchSamples(outcomes.map(\.exit.seconds)) }
            func cpu(_ outcomes: [ChildProcess.Outcome]) -> String { BenchFormat.milliseconds(BenchSamples(outcomes.map(\.cpu.seconds)).median) }
            let warm = firstLine(result.warm).median
            let table = MarkdownTable([("variant", false), ("what it does", false), ("first page printed", true), ("exit", true), ("CPU (user+sys)", true), ("first page vs warm", true)])
            table.printHeader()
            table.printRow(["warm restore", "state with \(loadedPosts) ids + warm page cache → prints posts \(loadedPosts + 1)…\(loadedPosts + pageSize)",
                            BenchFormat.milliseconds(warm), BenchFormat.milliseconds(exit(result.warm).median), cpu(result.warm), BenchFormat.ratio(1)])
            table.printRow(["cold, page 1", "state reset, caches empty → prints posts 1…\(pageSize) (not the same place)",
                            BenchFormat.milliseconds(firstLine(result.coldFirstPage).median), BenchFormat.milliseconds(exit(result.coldFirstPage).median),
                            cpu(result.coldFirstPage), BenchFormat.ratio(firstLine(result.coldFirstPage).median / warm)])
            let rebuild = BenchSamples(result.coldRebuild.compactMap { $0.markerSeen?.seconds }).median
            table.printRow(["floor: `postfeed --version`", "process start-up alone, for scale",
                            BenchFormat.milliseconds(firstLine(result.floor).median), BenchFormat.milliseconds(exit(result.floor).median),
                            cpu(result.floor), BenchFormat.ratio(firstLine(result.floor).median / warm)])
            table.printRow(["cold, rebuild", "state reset, caches empty, `--pages \(place)` → \(place) pages from the network; timed to post \(loadedPosts + 1)'s line",
                            BenchFormat.milliseconds(rebuild), BenchFormat.milliseconds(exit(result.coldRebuild).median), cpu(result.coldRebuild),
                            BenchFormat.ratio(rebuild / warm)])
            print("")
            if let hyperfine = result.hyperfineMedian {
                print("Cross-check: hyperfine (20 runs, state file restored before each) puts the warm command's exit at a median of \(BenchFormat.milliseconds(hyperfine)).\n")
            }
            print("Targets: restore ≤ 50 ms wall to the first page printed: \(BenchFormat.milliseconds(warm)) — \(BenchFormat.verdict(warm <= 0.050)); "
                  + "≥ 5× faster than the cold rebuild: \(BenchFormat.ratio(rebuild / warm)) — \(BenchFormat.verdict(rebuild / warm >= 5)).\n")
        }

        private func runScroll(server: DetachedFixtureServer, scratch: ScratchDirectory) async throws {
            print("### Scroll memory: \(scrollPosts) posts through `FeedClient.infinite` with `maximumResidentPages: \(residentPages)`, \(step) posts per screen, in a child process\n")
            let report = try await ScrollBenchmark.run(
                baseURL: server.baseURL, posts: scrollPosts, residentPages: residentPages, step: step, pageSize: pageSize, scratch: scratch)
            let table = MarkdownTable([("posts scrolled", true), ("elapsed", true), ("peak RSS (VmHWM)", true), ("RSS (VmRSS)", true), ("resident pages", true), ("peak vs 1,000 posts", true)])
            table.printHeader()
            guard let first = report.checkpoints.first, let last = report.checkpoints.last else {
                throw BenchError("the scroll worker recorded no checkpoint")
            }
            for checkpoint in report.checkpoints {
                table.printRow([BenchFormat.count(checkpoint.posts), String(format: "%.1f s", checkpoint.seconds),
                                BenchFormat.mebibytes(checkpoint.peakResidentKiB), BenchFormat.mebibytes(checkpoint.residentKiB),
                                "\(checkpoint.residentPages)",
                                BenchFormat.ratio(Double(checkpoint.peakResidentKiB) / Double(first.peakResidentKiB))])
            }
            print("")
            let ratio = Double(last.peakResidentKiB) / Double(first.peakResidentKiB)
            print("Target: peak RSS at the end within 1.2× of the peak after \(first.posts) posts: \(BenchFormat.ratio(ratio)) — \(BenchFormat.verdict(ratio <= 1.2)) "
                  + "(scrolled \(report.scrolled), loaded \(report.loaded)).\n")
        }
    }
}
