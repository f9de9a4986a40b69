import ArgumentParser
import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer

extension PostFeedBench {
    /// `postfeed-bench fetch`: PostFeed's client vs `curl --parallel` on the same images.
    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download the same images with PostFeed's client and with curl --parallel; print medians and ratios.")

        @Option(name: .customLong("base-url"), help: "A backend with PostFeed's API; default: the built-in one.")
        var baseURL: String?

        @Option(help: "Images per run.")
        var count: Int = 1000

        @Option(help: "Concurrency levels, comma-separated.")
        var concurrency: String = "1,16,64"

        @Option(help: "Runs per client and level; the median is reported.")
        var repeats: Int = 3

        func validate() throws {
            guard count >= 1, repeats >= 1 else { throw ValidationError("--count and --repeats must be at least 1.") }
            guard !levels.isEmpty else { throw ValidationError("--concurrency '\(concurrency)' has no positive numbers.") }
        }

        var levels: [Int] { concurrency.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 > 0 } }

        func run() async throws {
            var server: DetachedFixtureServer?
            let root: URL
            if let baseURL, let url = URL(string: baseURL) {
                root = url
            } else {
                let started = try await RunningFixtureServer.startDetached(FixtureServerConfiguration(imageMaxAge: 0))
                server = started
                root = started.baseURL
            }
            defer { if let server { Task { await server.shutdown() } } }
            let urls = try await Self.imageURLs(from: root, count: count)
            note("postfeed-bench fetch: \(urls.count) image downloads from \(root.absoluteString), \(repeats) runs each")
            print("| concurrency | client | median wall | vs curl |")
            print("|---:|---|---:|---:|")
            for level in levels {
                var results: [(String, Duration)] = []
                results.append(("curl --parallel", try Self.median(repeats) { try Self.curl(urls, parallel: level) }))
                results.append(("PostFeed (memory)", try await Self.medianAsync(repeats) { try await Self.postFeed(urls, concurrency: level, toFiles: false) }))
                results.append(("PostFeed (files)", try await Self.medianAsync(repeats) { try await Self.postFeed(urls, concurrency: level, toFiles: true) }))
                let curl = results[0].1
                for (name, time) in results {
                    print("| \(level) | \(name) | \(Self.format(time)) | \(String(format: "%.2f×", time / curl)) |")
                }
            }
        }

        /// `count` image URLs from the backend's posts, made unique with a query so nothing is cached.
        static func imageURLs(from root: URL, count: Int) async throws -> [URL] {
            try await HTTPClient.withHTTPClient { client in
                let url = root.appendingPathComponent("api/posts").appending(queryItems: [URLQueryItem(name: "limit", value: "100")])
                let response = try await client.get(url).requireSuccess()
                let page = try JSONDecoder().decode(PostListResponse.self, from: response.body)
                let images = page.posts.compactMap(\.imageURL).compactMap { URL(string: $0, relativeTo: root)?.absoluteURL }
                guard !images.isEmpty else { throw BenchError("\(url.absoluteString) lists no images to download") }
                return (0..<count).map { images[$0 % images.count].appending(queryItems: [URLQueryItem(name: "n", value: "\($0)")]) }
            }
        }

        static func postFeed(_ urls: [URL], concurrency: Int, toFiles: Bool) async throws -> Duration {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-bench-\(getpid())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = HTTPClient.Configuration(maximumConnections: concurrency, maximumConnectionsPerHost: concurrency, retryPolicy: .never)
            return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
                let clock = ContinuousClock()
                return try await clock.measure {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for url in urls {
                            group.addTask {
                                if toFiles {
                                    let download = try await client.download(HTTPRequest(url: url), into: folder)
                                    try? FileManager.default.removeItem(at: download.fileURL)
                                } else {
                                    _ = try await client.execute(HTTPRequest(url: url)).requireSuccess()
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
        }

        static func curl(_ urls: [URL], parallel: Int) throws -> Duration {
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-bench-\(getpid()).curl")
            defer { try? FileManager.default.removeItem(at: config) }
            try urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined().write(to: config, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["curl", "--silent", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", "\(parallel)", "-K", config.path]
            let clock = ContinuousClock()
            let elapsed = try clock.measure {
                try process.run()
                process.waitUntilExit()
            }
            guard process.terminationStatus == 0 else { throw BenchError("curl exited with status \(process.terminationStatus); is curl installed?") }
            return elapsed
        }

        static func median(_ runs: Int, _ body: () throws -> Duration) throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<runs { times.append(try body()) }
            return times.sorted()[times.count / 2]
        }

        static func medianAsync(_ runs: Int, _ body: () async throws -> Duration) async throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<runs { times.append(try await body()) }
            return times.sorted()[times.count / 2]
        }

        static func format(_ duration: Duration) -> String {
            let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            return String(format: "%.0f ms", milliseconds)
        }
    }
}
