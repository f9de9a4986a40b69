import Foundation

/// The HTTP clients compared.
enum Client: String, CaseIterable, Sendable {
    case postfeedMemory = "postfeed"
    case postfeedQueued = "postfeed-queued"
    /// As `postfeed-queued`, with the library's default caps instead of N and N: the total
    /// cap then never binds for one host, so it measures how the engine picks the next
    /// transfer among many waiting for a host that is full. Only run when named.
    case postfeedQueuedDefaultCaps = "postfeed-queued-default-caps"
    case postfeedDownload = "postfeed-download"
    case bareLibcurl = "libcurl-multi"
    case bareLibcurlReusingBuffers = "libcurl-multi-reuse"
    case curlCLI = "curl-cli"
    case asyncHTTPClient = "async-http-client"
    case urlSession = "urlsession"
    /// Fetches nothing: the RSS every in-process client starts from.
    case idle

    /// The clients of the comparison, in table order.
    static let measured = allCases.filter { $0 != .idle && $0 != .postfeedQueuedDefaultCaps }

    var title: String {
        switch self {
        case .postfeedMemory: "PostFeed `HTTPClient` (memory)"
        case .postfeedQueued: "PostFeed `HTTPClient` (memory), all queued at once"
        case .postfeedQueuedDefaultCaps: "PostFeed `HTTPClient` (memory), all queued at once, default caps (64, 16 per host)"
        case .postfeedDownload: "PostFeed `HTTPClient.download` (files)"
        case .bareLibcurl: "bare libcurl multi loop (C), a buffer per body"
        case .bareLibcurlReusingBuffers: "bare libcurl multi loop (C), buffers reused"
        case .curlCLI: "`curl --parallel` 7.88 (CLI)"
        case .asyncHTTPClient: "AsyncHTTPClient"
        case .urlSession: "Foundation `URLSession`"
        case .idle: "(this executable, idle)"
        }
    }
}

/// What one child reports on stdout, as one line of JSON.
struct Measurement: Codable, Sendable {
    var wallSeconds: Double
    var cpuSeconds: Double
    var peakRSSKiB: Int
    var bytes: Int
    var succeeded: Int
    var failed: Int
}

/// Tallies of one run.
struct Tally: Sendable {
    var bytes = 0
    var succeeded = 0
    var failed = 0

    mutating func add(_ byteCount: Int?) {
        if let byteCount {
            bytes += byteCount
            succeeded += 1
        } else {
            failed += 1
        }
    }
}

/// Fetches `count` items with exactly `concurrency` in flight: a new one starts as soon as
/// one finishes. `fetch` returns the body size, or `nil` for a failure or a non-200.
func fetchWindowed(count: Int, concurrency: Int, _ fetch: @escaping @Sendable (Int) async -> Int?) async -> Tally {
    await withTaskGroup(of: Int?.self) { group in
        var next = 0
        var tally = Tally()
        while next < min(concurrency, count) {
            let index = next
            group.addTask { await fetch(index) }
            next += 1
        }
        while let result = await group.next() {
            tally.add(result)
            if next < count {
                let index = next
                group.addTask { await fetch(index) }
                next += 1
            }
        }
        return tally
    }
}
