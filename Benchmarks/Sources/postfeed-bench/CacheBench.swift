import ArgumentParser
import Foundation
import PostFeedServer

extension PostFeedBench {
    /// `postfeed-bench cache`: memory hit, disk hit, warm replay vs cold network, coalescing.
    struct CacheBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Benchmark the memory and disk caches and the image pipeline; print Markdown tables.",
            discussion: """
                Four parts, each a Markdown table with its target:
                  memory      ns per MemoryCache hit vs NSCache vs a Dictionary under a Mutex
                  disk        p50/p99 of DiskCache.entry(forKey:) at 1k and 100k entries
                  replay      1000 images: warm replay from disk in a fresh process vs the cold fetch
                  coalescing  100 concurrent requests for one image: transfers at the server
                Run it from a release build; absolute times on a shared machine are noise, the
                ratios (measured side by side in one run) are the result.

                Examples:
                  postfeed-bench cache
                  postfeed-bench cache --only memory,disk --repetitions 7
                  postfeed-bench cache --disk-large-entries 20000 --disk-large-entry-size 30720
                """)

        @Option(help: "Parts to run, comma-separated: memory, disk, replay, coalescing.")
        var only: String = "memory,disk,replay,coalescing"

        @Option(help: "Repetitions per measurement; the median is reported.")
        var repetitions: Int = 5

        @Option(name: .customLong("memory-entries"), help: "Entry counts for the memory hit, comma-separated.")
        var memoryEntries: String = "1000,100000"

        @Option(help: "Thread counts for the memory hit, comma-separated.")
        var threads: String = "1,2"

        @Option(help: "Lookups per memory run, split across the threads.")
        var operations: Int = 2_000_000

        @Option(name: .customLong("disk-entry-size"), help: "Bytes per entry at the small disk entry count.")
        var diskEntrySize: Int = 30 * 1024

        @Option(name: .customLong("disk-entries"), help: "The small disk entry count.")
        var diskEntries: Int = 1000

        @Option(name: .customLong("disk-large-entries"), help: "The large disk entry count.")
        var diskLargeEntries: Int = 100_000

        @Option(
            name: .customLong("disk-large-entry-size"),
            help: "Bytes per entry at the large count (2 KiB keeps 100k entries near 300 MB instead of 3 GB); the small count is measured at this size too, for the like-for-like ratio.")
        var diskLargeEntrySize: Int = 2 * 1024

        @Option(name: .customLong("disk-lookups"), help: "Timed lookups per disk configuration.")
        var diskLookups: Int = 20_000

        @Option(help: "Images in the replay set.")
        var images: Int = 1000

        @Option(name: .customLong("image-concurrency"), help: "Image requests in flight at once in the replay.")
        var imageConcurrency: Int = 16

        @Option(name: .customLong("replay-repetitions"), help: "Cold + warm process pairs in the replay.")
        var replayRepetitions: Int = 3

        @Option(help: "Concurrent callers for one URL in the coalescing check.")
        var callers: Int = 100

        @Option(name: .customLong("coalescing-rounds"), help: "Rounds of the coalescing check, each with a new URL.")
        var coalescingRounds: Int = 5

        func validate() throws {
            guard repetitions >= 1, replayRepetitions >= 1, coalescingRounds >= 1 else {
                throw ValidationError("--repetitions, --replay-repetitions and --coalescing-rounds must be at least 1.")
            }
            guard operations >= 1000, diskLookups >= 100, images >= 1, callers >= 1 else {
                throw ValidationError("--operations ≥ 1000, --disk-lookups ≥ 100, --images ≥ 1 and --callers ≥ 1, please.")
            }
            guard diskEntrySize >= 16, diskLargeEntrySize >= 16, diskEntries >= 1, diskLargeEntries >= 1 else {
                throw ValidationError("disk entry sizes must be at least 16 bytes and entry counts at least 1.")
            }
            guard !parts.isEmpty, parts.isSubset(of: ["memory", "disk", "replay", "coalescing"]) else {
                throw ValidationError("--only '\(only)': use memory, disk, replay, coalescing (comma-separated).")
            }
            guard !Self.numbers(memoryEntries).isEmpty, !Self.numbers(threads).isEmpty else {
                throw ValidationError("--memory-entries and --threads need positive numbers, comma-separated.")
            }
        }

        var parts: Set<String> { Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }

        static func numbers(_ text: String) -> [Int] {
            text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 > 0 }
        }

        func run() async throws {
            let scratch = try ScratchDirectory("cache")
            defer { scratch.remove() }
            print("## postfeed-bench cache\n")
            print("Machine: \(BenchMachine.description)\n")
            if parts.contains("memory") { try await runMemory() }
            if parts.contains("disk") { try await runDisk(scratch: scratch) }
            if parts.contains("replay") || parts.contains("coalescing") {
                let server = try await RunningFixtureServer.startDetached(FixtureServerConfiguration())
                do {
                    if parts.contains("replay") { try await runReplay(server: server, scratch: scratch) }
                    if parts.contains("coalescing") { try await runCoalescing(server: server, scratch: scratch) }
                } catch {
                    await server.shutdown()
                    throw error
                }
                await server.shutdown()
            }
        }

        // MARK: Parts

        private func runMemory() async throws {
            print("### Memory hit: ns per `object(forKey:)` (random existing keys, \(operations) lookups per run split across the threads, median of \(repetitions))\n")
            let table = MarkdownTable([("entries", true), ("threads", true), ("structure", false), ("ns/op", true), ("vs locked Dictionary", true)])
            table.printHeader()
            let (entryCounts, threadCounts, operations, repetitions) = (Self.numbers(memoryEntries), Self.numbers(threads), operations, repetitions)
            let rows = try await onDedicatedThread {
                var rows: [MemoryHitBenchmark.Row] = []
                MemoryHitBenchmark.run(entryCounts: entryCounts, threadCounts: threadCounts, operations: operations,
                                       repetitions: repetitions) { row in
                    rows.append(row)
                    guard rows.count % MemoryHitBenchmark.structures.count == 0 else { return }
                    let group = rows.suffix(MemoryHitBenchmark.structures.count)
                    let floor = group.first { $0.structure == "locked Dictionary" }?.nanosecondsPerOperation ?? .nan
                    for row in group {
                        table.printRow([BenchFormat.count(row.entries), "\(row.threads)", row.structure,
                                        BenchFormat.nanoseconds(row.nanosecondsPerOperation),
                                        BenchFormat.ratio(row.nanosecondsPerOperation / floor)])
                    }
                }
                return rows
            }
            print("")
            print("Targets: MemoryCache within 2× of the locked Dictionary, and faster than NSCache.\n")
            let targets = MarkdownTable([("entries", true), ("threads", true), ("MemoryCache / locked Dictionary", true), ("≤ 2×", false),
                                         ("NSCache / MemoryCache", true), ("faster than NSCache", false)])
            targets.printHeader()
            for group in stride(from: 0, to: rows.count, by: MemoryHitBenchmark.structures.count) {
                let slice = rows[group..<min(group + MemoryHitBenchmark.structures.count, rows.count)]
                func time(_ name: String) -> Double { slice.first { $0.structure == name }?.nanosecondsPerOperation ?? .nan }
                let own = time("MemoryCache"), floor = time("locked Dictionary"), foundation = time("NSCache")
                targets.printRow([BenchFormat.count(slice.first?.entries ?? 0), "\(slice.first?.threads ?? 0)",
                                  BenchFormat.ratio(own / floor), BenchFormat.verdict(own / floor <= 2),
                                  BenchFormat.ratio(foundation / own), BenchFormat.verdict(own < foundation)])
            }
            print("")
        }

        private func runDisk(scratch: ScratchDirectory) async throws {
            var configurations = [DiskHitBenchmark.Configuration(entries: diskEntries, entrySize: diskEntrySize)]
            if diskLargeEntrySize != diskEntrySize {
                configurations.append(.init(entries: diskEntries, entrySize: diskLargeEntrySize))
            }
            configurations.append(.init(entries: diskLargeEntries, entrySize: diskLargeEntrySize))
            print("### Disk hit: latency of `DiskCache.entry(forKey:)` (\(diskLookups) random existing keys per cache, one untimed pass, then \(repetitions) timed passes round-robin over the caches; medians over the passes)\n")
            let table = MarkdownTable([("entries", true), ("entry size", true), ("fill (2 writers, fsync each)", true),
                                       ("p50", true), ("p99", true), ("mean", true)])
            table.printHeader()
            let (lookups, passes, measured) = (diskLookups, repetitions, configurations)
            let rows = try await onDedicatedThread {
                try DiskHitBenchmark.run(measured, lookups: lookups, passes: passes, scratch: scratch)
            }
            for row in rows {
                let configuration = row.configuration
                table.printRow([BenchFormat.count(configuration.entries), BenchFormat.bytes(configuration.entrySize),
                                String(format: "%.1f s (%.0f/s)", row.fillSeconds, Double(configuration.entries) / row.fillSeconds),
                                BenchFormat.microseconds(row.p50), BenchFormat.microseconds(row.p99), BenchFormat.microseconds(row.mean)])
            }
            print("")
            if let small = rows.first(where: { $0.configuration.entries == diskEntries && $0.configuration.entrySize == diskLargeEntrySize }),
               let large = rows.first(where: { $0.configuration.entries == diskLargeEntries }) {
                let ratio = large.p50 / small.p50
                print("Target: p50 at \(BenchFormat.count(diskLargeEntries)) entries within 1.2× of p50 at \(BenchFormat.count(diskEntries)), same entry size (\(BenchFormat.bytes(diskLargeEntrySize))): "
                      + "\(BenchFormat.ratio(ratio)) — \(BenchFormat.verdict(ratio <= 1.2)) (p99 ratio \(BenchFormat.ratio(large.p99 / small.p99))).\n")
            }
        }

        private func runReplay(server: DetachedFixtureServer, scratch: ScratchDirectory) async throws {
            print("### Warm replay vs cold network: \(images) images (fixture images, unique `?n=i`) through `ImagePipeline`, \(imageConcurrency) in flight, each pass a fresh `postfeed-bench image-replay-worker` process timed from outside (median of \(replayRepetitions))\n")
            let result = try await ImagePipelineBenchmark.replay(
                server: server, count: images, concurrency: imageConcurrency, repetitions: replayRepetitions, scratch: scratch)
            let table = MarkdownTable([("pass", false), ("sources", false), ("process wall (outside)", true), ("process CPU", true),
                                       ("pipeline only (inside)", true), ("vs cold", true)])
            table.printHeader()
            table.printRow(["cold: network → disk", "\(result.coldReport)", BenchFormat.milliseconds(result.cold.median),
                            BenchFormat.milliseconds(result.coldCPU.median), BenchFormat.milliseconds(result.coldInner.median), BenchFormat.ratio(1)])
            table.printRow(["warm: disk, fresh process", "\(result.warmReport)", BenchFormat.milliseconds(result.warm.median),
                            BenchFormat.milliseconds(result.warmCPU.median), BenchFormat.milliseconds(result.warmInner.median),
                            BenchFormat.ratio(result.cold.median / result.warm.median) + " faster"])
            print("")
            let speedup = result.cold.median / result.warm.median
            print("Image requests at the server during the warm passes: \(result.warmImageRequests).")
            print("Target: warm replay ≥ 8× faster than the cold fetch (process wall): \(BenchFormat.ratio(speedup)) — \(BenchFormat.verdict(speedup >= 8)).\n")
        }

        private func runCoalescing(server: DetachedFixtureServer, scratch: ScratchDirectory) async throws {
            print("### Coalescing: \(callers) concurrent `ImagePipeline.image(for:)` for one URL, transfers counted at the server\n")
            let table = MarkdownTable([("round", true), ("callers", true), ("succeeded", true), ("transfers at the server", true)])
            table.printHeader()
            var allOne = true
            for round in 1...coalescingRounds {
                let outcome = try await ImagePipelineBenchmark.coalescing(server: server, callers: callers, round: round, scratch: scratch)
                allOne = allOne && outcome.transfers == 1 && outcome.succeeded == outcome.callers
                table.printRow(["\(round)", "\(outcome.callers)", "\(outcome.succeeded)", "\(outcome.transfers)"])
            }
            print("")
            print("Target: exactly 1 transfer per round, every caller served — \(BenchFormat.verdict(allOne)).\n")
        }
    }
}
