import Foundation

/// The parent: builds the corpus, starts nginx, runs every client at every concurrency
/// `repeats` times (each in a fresh child process), and prints the table.
enum BenchmarkRun {
    static func main(arguments: Arguments) async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("root", isDirectory: true)
        log("generating \(arguments.fileCount) files in \(root.path)")
        let corpus = try Corpus.generate(count: arguments.fileCount, into: root)
        let nginx = try Nginx.start(root: root, prefix: folder.appendingPathComponent("nginx", isDirectory: true))
        defer { nginx.stop() }
        log("nginx on 127.0.0.1:\(nginx.port), \(corpus.totalBytes / 1_000_000) MB in total")

        let urls = (0..<arguments.fileCount).map { "http://127.0.0.1:\(nginx.port)/files/\(Corpus.name($0))" }
        let urlList = folder.appendingPathComponent("urls.txt")
        try Data(urls.joined(separator: "\n").utf8).write(to: urlList)
        // Downloads go to tmpfs when there is one: on ext4, creating 1000 files right after
        // deleting the previous run's 1000 spends ~0.5 s of kernel time in the inode
        // allocator (find_get_block_common, recently_deleted), whatever the client.
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let downloadParent = FileManager.default.isWritableFile(atPath: shm.path) ? shm : folder
        let downloads = downloadParent.appendingPathComponent("postfeed-bench-downloads-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: downloads) }
        if arguments.serveOnly {
            log("serving; URL list in \(urlList.path); close stdin to stop")
            while readLine() != nil {}
            return
        }

        // One untimed pass, so nginx's files are in the page cache for everyone.
        _ = try measure(.curlCLI, concurrency: 16, urlList: urlList, downloads: downloads, corpus: corpus)
        let idle = try measure(.idle, concurrency: 1, urlList: urlList, downloads: downloads, corpus: corpus)

        var results: [Int: [Client: [Measurement]]] = [:]
        for concurrency in arguments.concurrencies {
            for round in 1...arguments.repeats {
                for client in arguments.clients {
                    let measurement = try measure(
                        client, concurrency: concurrency, urlList: urlList, downloads: downloads, corpus: corpus)
                    results[concurrency, default: [:]][client, default: []].append(measurement)
                    log(String(
                        format: "c=%-3d round %d  %-18@ %7.3f s  cpu %6.3f s  rss %6.1f MB",
                        concurrency, round, client.rawValue, measurement.wallSeconds, measurement.cpuSeconds,
                        Double(measurement.peakRSSKiB) / 1024))
                }
            }
        }
        let report = Report(
            results: results, arguments: arguments, corpus: corpus, idleRSSKiB: idle.peakRSSKiB,
            downloadFolder: downloadParent.path)
        print(report.markdown)
    }

    /// Runs `client` once in a child process and checks it fetched every byte.
    static func measure(_ client: Client, concurrency: Int, urlList: URL, downloads: URL, corpus: Corpus) throws
        -> Measurement
    {
        try? FileManager.default.removeItem(at: downloads)
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: downloads) }
        let child = try SpawnedProcess.run("/proc/self/exe", [
            "--client", client.rawValue, "--concurrency", String(concurrency), "--urls", urlList.path,
            "--download-folder", downloads.path,
        ])
        guard child.exitCode == 0,
            let line = String(decoding: child.output, as: UTF8.self).split(separator: "\n").last,
            let measurement = try? JSONDecoder().decode(Measurement.self, from: Data(line.utf8))
        else {
            throw SpawnError("\(client.rawValue) at concurrency \(concurrency) failed (exit \(child.exitCode))")
        }
        guard client == .idle || (measurement.failed == 0 && measurement.bytes == corpus.totalBytes) else {
            throw SpawnError(
                "\(client.rawValue) at concurrency \(concurrency): \(measurement.failed) failed, "
                    + "\(measurement.bytes) of \(corpus.totalBytes) bytes")
        }
        return measurement
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }
}
