import ArgumentParser
import Foundation
import PostFeed

/// `postfeed-bench list`, part 2: memory while scrolling a very long infinite feed with a window of
/// resident pages.
///
/// The scrolling runs in a child process (``ScrollWorker``) so that its resident set is the
/// client's alone: the fixture server with its 100,000 posts stays in the parent.
enum ScrollBenchmark {
    static func run(baseURL: URL, posts: Int, residentPages: Int, step: Int, pageSize: Int, scratch: ScratchDirectory) async throws -> ScrollWorker.Report {
        let root = scratch.appending("scroll")
        defer { try? FileManager.default.removeItem(at: root) }
        let worker = ChildProcess(
            executable: ChildProcess.currentExecutable,
            arguments: ["scroll-worker", "--base-url", baseURL.absoluteString, "--cache-dir", root.path,
                        "--posts", "\(posts)", "--resident-pages", "\(residentPages)", "--step", "\(step)",
                        "--page-size", "\(pageSize)"])
        let outcome = try await worker.runChecked("the scroll worker")
        guard let line = String(decoding: outcome.standardOutput, as: UTF8.self).split(separator: "\n").last,
              let report = try? JSONDecoder().decode(ScrollWorker.Report.self, from: Data(line.utf8))
        else { throw BenchError("the scroll worker printed no report: \(outcome.standardError.suffix(1000))") }
        return report
    }
}

/// The process `postfeed-bench list` starts to scroll the infinite feed through ``FeedClient`` and
/// report its memory (`VmHWM`, `VmRSS`) at checkpoints. Prints one JSON ``Report`` line.
struct ScrollWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-worker",
        abstract: "(internal to 'postfeed-bench list') Scroll the infinite feed and report memory.",
        shouldDisplay: false)

    @Option(name: .customLong("base-url")) var baseURL: String
    @Option(name: .customLong("cache-dir")) var cacheDirectory: String
    @Option var posts: Int = 100_000
    @Option(name: .customLong("resident-pages")) var residentPages: Int = 10
    @Option(help: "Posts per screen: the reader advances this many at a time.") var step: Int = 10
    @Option(name: .customLong("page-size")) var pageSize: Int = 20

    struct Checkpoint: Codable {
        var posts: Int
        var seconds: Double
        var peakResidentKiB: Int
        var residentKiB: Int
        var residentPages: Int
    }

    struct Report: Codable {
        var checkpoints: [Checkpoint]
        var scrolled: Int
        var loaded: Int
    }

    func run() async throws {
        guard let url = URL(string: baseURL) else { throw BenchError("--base-url '\(baseURL)' is not a URL") }
        let backend = try BackendDescription.preset("postfeed", baseURL: url)
        var configuration = FeedClient.Configuration(
            backend: backend, pageSize: pageSize, cacheLocation: CacheLocation(root: URL(fileURLWithPath: cacheDirectory)))
        configuration.infinite.maximumResidentPages = residentPages
        let target = posts
        let step = step
        let report = try await FeedClient.withFeedClient(configuration) { client in
            let feed = client.infinite
            let clock = ContinuousClock()
            let start = clock.now
            var checkpoints: [Checkpoint] = []
            func checkpoint(_ index: Int) async {
                let memory = ProcessMemory.current()
                checkpoints.append(Checkpoint(
                    posts: index, seconds: start.duration(to: clock.now).seconds, peakResidentKiB: memory.peakResidentKiB,
                    residentKiB: memory.residentKiB, residentPages: await feed.residentPageCount))
            }
            var index = 0
            var nextCheckpoint = 1000
            while index < target {
                // The reader's screen shows posts index..<index+step; its last row drives loading.
                try await feed.loadMoreIfNeeded(visibleIndex: index + step - 1)
                let visible = try await feed.posts(in: index..<min(index + step, target))
                guard !visible.isEmpty else { break }
                index += visible.count
                if index >= nextCheckpoint {
                    await checkpoint(index)
                    nextCheckpoint = nextCheckpoint < 10_000 ? 10_000 : nextCheckpoint + 10_000
                }
            }
            if checkpoints.last?.posts != index { await checkpoint(index) }
            return Report(checkpoints: checkpoints, scrolled: index, loaded: await feed.count)
        }
        print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    }
}
