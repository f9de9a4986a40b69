import Foundation

/// The Markdown table: medians over the repeats, ratios to the curl CLI.
struct Report {
    var results: [Int: [Client: [Measurement]]]
    var arguments: Arguments
    var corpus: Corpus
    /// Peak RSS of the benchmark executable doing nothing: the floor of every in-process row.
    var idleRSSKiB: Int
    /// Where `postfeed-download` wrote its files.
    var downloadFolder: String

    var markdown: String {
        var lines: [String] = []
        let megabytes = Double(corpus.totalBytes) / 1_000_000
        lines.append(
            "\(corpus.sizes.count) files, 5–300 KB each (\(String(format: "%.1f", megabytes)) MB), "
                + "from nginx on 127.0.0.1; median of \(arguments.repeats) runs, each client in a fresh process.")
        lines.append("")
        lines.append("| concurrency | client | wall (s) | wall min–max (s) | × curl wall | req/s | CPU (s) | peak RSS (MB) |")
        lines.append("|---:|---|---:|---:|---:|---:|---:|---:|")
        for concurrency in arguments.concurrencies {
            guard let byClient = results[concurrency] else { continue }
            let curl = byClient[.curlCLI].map { median($0.map(\.wallSeconds)) }
            for client in arguments.clients {
                guard let runs = byClient[client] else { continue }
                let wall = median(runs.map(\.wallSeconds))
                let ratio = curl.map { String(format: "%.2f", wall / $0) } ?? "–"
                lines.append(
                    "| \(concurrency) | \(client.title) | \(String(format: "%.3f", wall)) | "
                        + "\(String(format: "%.3f–%.3f", runs.map(\.wallSeconds).min() ?? 0, runs.map(\.wallSeconds).max() ?? 0)) | "
                        + "\(ratio) | "
                        + "\(String(format: "%.0f", Double(corpus.sizes.count) / wall)) | "
                        + "\(String(format: "%.3f", median(runs.map(\.cpuSeconds)))) | "
                        + "\(String(format: "%.1f", median(runs.map { Double($0.peakRSSKiB) / 1024 }))) |")
            }
        }
        lines.append("")
        lines.append(
            "In-process clients run inside this executable, which alone peaks at "
                + "\(String(format: "%.1f", Double(idleRSSKiB) / 1024)) MB (Foundation, NIO and libcurl loaded); "
                + "the curl CLI's RSS is its own process's. Downloads were written to \(downloadFolder).")
        lines.append("")
        lines.append(contentsOf: targets(at: 16, postfeed: .postfeedMemory))
        lines.append("")
        lines.append(contentsOf: targets(at: 16, postfeed: .postfeedQueued))
        return lines.joined(separator: "\n")
    }

    /// The issue's targets at concurrency 16, each with the measured ratio.
    func targets(at concurrency: Int, postfeed client: Client) -> [String] {
        guard let byClient = results[concurrency], let postfeed = wall(byClient, client) else { return [] }
        var lines = ["Targets at concurrency \(concurrency), for \(client.title):", ""]
        func line(_ text: String, _ ratio: Double?, met: (Double) -> Bool) {
            guard let ratio else { return }
            lines.append("- \(text): \(String(format: "%.2f", ratio)) — \(met(ratio) ? "met" : "missed")")
        }
        line("PostFeed wall ÷ curl wall ≤ 0.8", wall(byClient, .curlCLI).map { postfeed / $0 }) { $0 <= 0.8 }
        line("URLSession wall ÷ PostFeed wall ≥ 5", wall(byClient, .urlSession).map { $0 / postfeed }) { $0 >= 5 }
        line("AsyncHTTPClient wall ÷ PostFeed wall ≥ 1.4", wall(byClient, .asyncHTTPClient).map { $0 / postfeed }) {
            $0 >= 1.4
        }
        line("PostFeed wall ÷ bare libcurl (a buffer per body) wall ≤ 1.10", wall(byClient, .bareLibcurl).map { postfeed / $0 }) {
            $0 <= 1.10
        }
        line(
            "PostFeed wall ÷ bare libcurl (buffers reused) wall ≤ 1.10",
            wall(byClient, .bareLibcurlReusingBuffers).map { postfeed / $0 }
        ) { $0 <= 1.10 }
        return lines
    }

    private func wall(_ byClient: [Client: [Measurement]], _ client: Client) -> Double? {
        byClient[client].map { median($0.map(\.wallSeconds)) }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}
