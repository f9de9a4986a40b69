import ArgumentParser
import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer

/// `postfeed-bench cache`, parts 3 and 4: the image pipeline end to end.
///
/// - **Warm replay vs cold network**: the same image set is fetched by a fresh
///   `postfeed-bench image-replay-worker` process (``ImageReplayWorker``) twice over one
///   cache root: first with an empty cache (network → disk), then again (disk). Both are
///   timed from outside, process start-up included, so the comparison is what a user waits for.
/// - **Coalescing**: many concurrent requests for one URL, counted at the server.
enum ImagePipelineBenchmark {
    struct ReplayResult {
        var cold: BenchSamples
        var warm: BenchSamples
        var coldCPU: BenchSamples
        var warmCPU: BenchSamples
        var coldInner: BenchSamples
        var warmInner: BenchSamples
        var coldReport: ImageReplayWorker.Report
        var warmReport: ImageReplayWorker.Report
        var warmImageRequests: Int
    }

    static func replay(
        server: DetachedFixtureServer, count: Int, concurrency: Int, repetitions: Int, scratch: ScratchDirectory
    ) async throws -> ReplayResult {
        let urls = try await PostFeedBench.Fetch.imageURLs(from: server.baseURL, count: count)
        let list = scratch.appending("image-urls.txt", isDirectory: false)
        try urls.map(\.absoluteString).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)

        var cold: [Double] = [], warm: [Double] = [], coldInner: [Double] = [], warmInner: [Double] = []
        var coldCPU: [Double] = [], warmCPU: [Double] = []
        var coldReport: ImageReplayWorker.Report?
        var warmReport: ImageReplayWorker.Report?
        var warmImageRequests = 0
        for repetition in 0..<repetitions {
            let root = scratch.appending("replay-\(repetition)")
            defer { try? FileManager.default.removeItem(at: root) }
            let worker = ChildProcess(
                executable: ChildProcess.currentExecutable,
                arguments: ["image-replay-worker", "--urls", list.path, "--cache-dir", root.path,
                            "--concurrency", "\(concurrency)"])

            let coldRun = try await worker.runChecked("the cold image fetch")
            let coldParsed = try ImageReplayWorker.Report.parse(coldRun.standardOutput)
            guard coldParsed.network == urls.count else {
                throw BenchError("cold image fetch: expected \(urls.count) network loads, got \(coldParsed)")
            }

            server.server.resetRequestCounts()
            let warmRun = try await worker.runChecked("the warm image replay")
            let warmParsed = try ImageReplayWorker.Report.parse(warmRun.standardOutput)
            warmImageRequests = max(warmImageRequests, server.server.requestCount(pathPrefix: "/images/"))
            guard warmParsed.disk == urls.count else {
                throw BenchError("warm image replay: expected \(urls.count) disk hits, got \(warmParsed)")
            }
            cold.append(coldRun.exit.seconds)
            warm.append(warmRun.exit.seconds)
            coldCPU.append(coldRun.cpu.seconds)
            warmCPU.append(warmRun.cpu.seconds)
            coldInner.append(coldParsed.seconds)
            warmInner.append(warmParsed.seconds)
            coldReport = coldParsed
            warmReport = warmParsed
        }
        guard let coldReport, let warmReport else { throw BenchError("image replay: no repetitions ran") }
        return ReplayResult(
            cold: BenchSamples(cold), warm: BenchSamples(warm), coldCPU: BenchSamples(coldCPU), warmCPU: BenchSamples(warmCPU),
            coldInner: BenchSamples(coldInner),
            warmInner: BenchSamples(warmInner), coldReport: coldReport, warmReport: warmReport,
            warmImageRequests: warmImageRequests)
    }

    struct CoalescingRound {
        var callers: Int
        var succeeded: Int
        var transfers: Int
    }

    /// `callers` concurrent `image(for:)` for one URL new to the server and the caches.
    static func coalescing(server: DetachedFixtureServer, callers: Int, round: Int, scratch: ScratchDirectory) async throws -> CoalescingRound {
        let root = scratch.appending("coalescing-\(round)")
        defer { try? FileManager.default.removeItem(at: root) }
        let disk = try DiskCache(directory: CacheLocation(root: root).imageCache)
        let url = try await PostFeedBench.Fetch.imageURLs(from: server.baseURL, count: 1)[0]
            .appending(queryItems: [URLQueryItem(name: "coalesce", value: "\(round)-\(UInt32.random(in: 0...UInt32.max))")])
        return try await HTTPClient.withHTTPClient { client in
            let pipeline = ImagePipeline(loader: client, disk: disk)
            server.server.resetRequestCounts()
            let succeeded = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<callers {
                    group.addTask { (try? await pipeline.image(for: url)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return CoalescingRound(
                callers: callers, succeeded: succeeded, transfers: server.server.requestCount(pathPrefix: "/images/"))
        }
    }
}

/// The process `postfeed-bench cache` re-executes to fetch or replay an image set through a fresh
/// ``ImagePipeline`` over a given cache root. Prints one JSON ``Report`` line.
struct ImageReplayWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-replay-worker",
        abstract: "(internal to 'postfeed-bench cache') Load every URL of a list through the image pipeline.",
        shouldDisplay: false)

    @Option(help: "A file with one image URL per line.")
    var urls: String

    @Option(name: .customLong("cache-dir"), help: "The cache root (its ImageCache/ is used).")
    var cacheDirectory: String

    @Option(help: "Requests in flight at once.")
    var concurrency: Int = 16

    struct Report: Codable, CustomStringConvertible {
        var seconds: Double
        var network = 0
        var disk = 0
        var memory = 0
        var other = 0
        var failed = 0

        static func parse(_ output: Data) throws -> Report {
            guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last,
                  let report = try? JSONDecoder().decode(Report.self, from: Data(line.utf8))
            else { throw BenchError("image replay worker printed no report: \(String(decoding: output.prefix(500), as: UTF8.self))") }
            return report
        }

        var description: String { "network \(network), disk \(disk), memory \(memory), other \(other), failed \(failed)" }
    }

    func run() async throws {
        let list = try String(contentsOfFile: urls, encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
        let disk = try DiskCache(directory: CacheLocation(root: URL(fileURLWithPath: cacheDirectory)).imageCache)
        let clock = ContinuousClock()
        let start = clock.now
        var report = try await HTTPClient.withHTTPClient { client in
            let pipeline = ImagePipeline(loader: client, disk: disk)
            return await withTaskGroup(of: ImageResponse.Source?.self) { group in
                var report = Report(seconds: 0)
                func tally(_ source: ImageResponse.Source?) {
                    switch source {
                    case .network?: report.network += 1
                    case .disk?: report.disk += 1
                    case .memory?: report.memory += 1
                    case nil: report.failed += 1
                    default: report.other += 1
                    }
                }
                var next = 0
                for _ in 0..<min(max(1, concurrency), list.count) {
                    let url = list[next]
                    next += 1
                    group.addTask { try? await pipeline.image(for: url).source }
                }
                while let source = await group.next() {
                    tally(source)
                    if next < list.count {
                        let url = list[next]
                        next += 1
                        group.addTask { try? await pipeline.image(for: url).source }
                    }
                }
                return report
            }
        }
        report.seconds = start.duration(to: clock.now).seconds
        let line = try JSONEncoder().encode(report)
        print(String(decoding: line, as: UTF8.self))
    }
}
