import Foundation
import PostFeedHTTP

/// A child process: measures one client once and prints a ``Measurement``.
enum ChildRun {
    static func main(client: Client, arguments: Arguments) async throws {
        guard let listPath = arguments.urlList else { throw UsageError("--client needs --urls FILE") }
        let urls = try String(contentsOfFile: listPath, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let concurrency = arguments.concurrency
        var measurement: Measurement
        switch client {
        case .curlCLI:
            measurement = try CurlCLIFetch.run(urls: urls, concurrency: concurrency)
        default:
            let cpuBefore = ResourceUsage.selfCPUSeconds()
            let start = ContinuousClock.now
            let tally: Tally
            switch client {
            case .postfeedMemory:
                tally = try await PostFeedFetch.inMemory(urls: urls, concurrency: concurrency)
            case .postfeedQueued:
                tally = try await PostFeedFetch.allQueued(urls: urls, configuration: PostFeedFetch.configuration(concurrency: concurrency))
            case .postfeedQueuedDefaultCaps:
                tally = try await PostFeedFetch.allQueued(urls: urls, configuration: HTTPClient.Configuration(retryPolicy: .never))
            case .postfeedDownload:
                guard let folder = arguments.downloadFolder else {
                    throw UsageError("postfeed-download needs --download-folder")
                }
                tally = try await PostFeedFetch.download(
                    urls: urls, concurrency: concurrency, folder: URL(fileURLWithPath: folder))
            case .bareLibcurl:
                tally = try BareCurlFetch.run(urls: urls, concurrency: concurrency, freshBuffers: true)
            case .bareLibcurlReusingBuffers:
                tally = try BareCurlFetch.run(urls: urls, concurrency: concurrency, freshBuffers: false)
            case .asyncHTTPClient:
                tally = try await AsyncHTTPClientFetch.run(urls: urls, concurrency: concurrency)
            case .urlSession:
                tally = await URLSessionFetch.run(urls: urls, concurrency: concurrency)
            case .idle:
                tally = Tally()
            case .curlCLI:
                preconditionFailure("handled above")
            }
            let wall = start.duration(to: .now)
            measurement = Measurement(
                wallSeconds: wall.seconds, cpuSeconds: ResourceUsage.selfCPUSeconds() - cpuBefore,
                peakRSSKiB: ResourceUsage.selfPeakRSSKiB(), bytes: tally.bytes, succeeded: tally.succeeded,
                failed: tally.failed)
        }
        let line = try JSONEncoder().encode(measurement)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
