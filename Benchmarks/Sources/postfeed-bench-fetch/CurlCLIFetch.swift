import Foundation

/// The curl command line: `curl --parallel --parallel-max N -K urls.conf`, each body to
/// /dev/null. Its CPU time is its own (from `wait4`), its peak RSS sampled while it runs.
enum CurlCLIFetch {
    static let executable = "/usr/bin/curl"

    static func run(urls: [String], concurrency: Int) throws -> Measurement {
        let config = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-bench-curl-\(getpid()).conf")
        defer { try? FileManager.default.removeItem(at: config) }
        let lines = urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined()
        try Data(lines.utf8).write(to: config)

        let start = ContinuousClock.now
        let process = try SpawnedProcess.run(executable, [
            "--silent", "--no-progress-meter", "--parallel", "--parallel-immediate", "--parallel-max", String(concurrency),
            "--write-out", "%{http_code} %{size_download}\\n", "--config", config.path,
        ])
        let wall = start.duration(to: .now)

        var tally = Tally()
        for line in String(decoding: process.output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == "200", let size = Int(fields[1]) {
                tally.add(size)
            } else {
                tally.add(nil)
            }
        }
        tally.failed += max(0, urls.count - tally.succeeded - tally.failed)
        return Measurement(
            wallSeconds: wall.seconds, cpuSeconds: ResourceUsage.cpuSeconds(process.usage),
            peakRSSKiB: process.peakRSSKiB, bytes: tally.bytes, succeeded: tally.succeeded,
            failed: tally.failed)
    }
}
