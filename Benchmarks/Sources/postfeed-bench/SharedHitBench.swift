import ArgumentParser
import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedRedis

extension PostFeedBench {
    /// `postfeed-bench shared-hit`: a Redis hit on loopback against a local disk hit, p50,
    /// side by side in one run (issue 18's target: ≤ 2×). `scripts/bench-shared.sh` runs it
    /// against the redis-server it starts.
    ///
    /// The same images (the fixture images, under distinct URLs) are stored on a disk cache
    /// and in Redis. Two levels are timed, one clock reading around each call, passes
    /// alternating between the two sides so drift on a shared machine reaches both alike:
    /// - **layer**: `DiskCache.entry(forKey:)` against `RedisCache.lookup(forKey:)` (GET and
    ///   checksum verification);
    /// - **pipeline**: `ImagePipeline.image(for:)` with an empty memory layer, from a warm disk
    ///   against from Redis only (a fresh, empty disk cache each pass: what an instance that
    ///   never saw the image waits for; the Redis hit's write to its disk goes on behind it);
    /// - **pipeline, unsynced disk**: the same, the Redis side's empty disk cache made with
    ///   `synchronizesWrites = false`: what of the pipeline's cost is the `fsync` of the
    ///   writes behind the reader, competing for the machine.
    struct SharedHitBench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shared-hit",
            abstract: "Time a shared-tier (Redis) hit against a disk hit, p50; print a Markdown table.",
            discussion: """
                Example:
                  redis-server --port 6400 --save '' &
                  postfeed-bench shared-hit --redis redis://127.0.0.1:6400 --fixtures Fixtures
                """)

        @Option(help: "The Redis to use (it is written to under postfeed-bench:…).")
        var redis: String

        @Option(help: "The Fixtures/ folder whose images are stored.")
        var fixtures: String = "Fixtures"

        @Option(help: "Images per pass.")
        var images: Int = 300

        @Option(help: "Passes per side; each row is the median of the passes' p50 and p99.")
        var passes: Int = 5

        func validate() throws {
            guard images >= 10, passes >= 1 else { throw ValidationError("--images ≥ 10 and --passes ≥ 1, please.") }
        }

        func run() async throws {
            let address = try RedisAddress(parsing: redis)
            let bodies = try Self.fixtureImages(in: URL(fileURLWithPath: fixtures))
            let scratch = try ScratchDirectory("shared-hit")
            defer { scratch.remove() }
            let shared = RedisCache(configuration: RedisCache.Configuration(address: address, namespace: "postfeed-bench:\(UUID().uuidString):"))
            let urls = (0..<images).map { URL(string: "http://127.0.0.1:9/images/shared-\($0).img") ?? URL(fileURLWithPath: "/") }
            let keys = urls.map(ImagePipeline.defaultCacheKey)
            let warmDisk = try DiskCache(directory: scratch.appending("warm"))
            let now = Date()
            for (index, key) in keys.enumerated() {
                let body = bodies[index % bodies.count]
                let metadata = CacheEntryMetadata(
                    key: key, url: urls[index].absoluteString, etag: "\"\(index)\"", contentType: "image/jpeg",
                    expiresAt: now.addingTimeInterval(86_400), storedAt: now, attributes: [:])
                try warmDisk.store(body, metadata: metadata, forKey: key)
                guard await shared.share(DiskCacheEntry(data: body, metadata: metadata), forKey: key) else {
                    throw BenchError("shared-hit: Redis at \(redis) did not take the entry for \(key); is it running?")
                }
            }
            let totalBytes = keys.indices.reduce(0) { $0 + bodies[$1 % bodies.count].count }
            print("### Shared tier hit vs disk hit (\(images) images, \(totalBytes / images / 1024) KiB on average, \(passes) passes, median of the passes)\n")
            print("Machine: \(BenchMachine.description)\n")

            let clock = ContinuousClock()
            typealias Sides = (disk: [(Double, Double)], redis: [(Double, Double)])
            let (layer, pipeline, unsynced) = try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: .never)) {
                client -> (Sides, Sides, Sides) in
                var layer: Sides = ([], []), pipeline: Sides = ([], []), unsynced: Sides = ([], [])
                for pass in 0..<passes {
                    var diskTimes: [Double] = [], redisTimes: [Double] = []
                    for key in keys {
                        let start = clock.now
                        let entry = warmDisk.entry(forKey: key)
                        diskTimes.append(start.duration(to: clock.now).seconds)
                        guard entry != nil else { throw BenchError("shared-hit: the disk entry for \(key) is missing") }
                    }
                    for key in keys {
                        let start = clock.now
                        let entry = await shared.lookup(forKey: key)
                        redisTimes.append(start.duration(to: clock.now).seconds)
                        guard entry != nil else { throw BenchError("shared-hit: the Redis entry for \(key) is missing") }
                    }
                    layer.disk.append(Self.p50p99(diskTimes))
                    layer.redis.append(Self.p50p99(redisTimes))

                    // A fresh pipeline each side and pass: the memory layer is empty.
                    let fromDisk = ImagePipeline(loader: client, disk: warmDisk)
                    diskTimes = try await Self.time(urls, fromDisk, expecting: .disk)
                    let emptyDisk = try DiskCache(directory: scratch.appending("empty-\(pass)"))
                    let fromRedis = ImagePipeline(loader: client, disk: emptyDisk, shared: shared)
                    redisTimes = try await Self.time(urls, fromRedis, expecting: .shared)
                    pipeline.disk.append(Self.p50p99(diskTimes))
                    pipeline.redis.append(Self.p50p99(redisTimes))
                    try await Self.awaitWrites(keys, emptyDisk)
                    try? FileManager.default.removeItem(at: scratch.appending("empty-\(pass)"))

                    var noSync = DiskCache.Configuration()
                    noSync.synchronizesWrites = false
                    let unsyncedDisk = try DiskCache(directory: scratch.appending("unsynced-\(pass)"), configuration: noSync)
                    let fromRedisUnsynced = ImagePipeline(loader: client, disk: unsyncedDisk, shared: shared)
                    redisTimes = try await Self.time(urls, fromRedisUnsynced, expecting: .shared)
                    unsynced.disk.append(Self.p50p99(diskTimes))
                    unsynced.redis.append(Self.p50p99(redisTimes))
                    try await Self.awaitWrites(keys, unsyncedDisk)
                    try? FileManager.default.removeItem(at: scratch.appending("unsynced-\(pass)"))
                }
                return (layer, pipeline, unsynced)
            }
            for key in keys { shared.removeEntry(forKey: key) }

            let table = MarkdownTable([("level", false), ("disk hit p50", true), ("Redis hit p50", true), ("Redis ÷ disk", true),
                                       ("≤ 2×", false), ("disk p99", true), ("Redis p99", true)])
            table.printHeader()
            for (name, sides) in [("layer lookup (`entry(forKey:)` / `lookup(forKey:)`)", layer),
                                  ("`ImagePipeline.image(for:)`, memory empty", pipeline),
                                  ("the same, Redis side's disk unsynced (`synchronizesWrites = false`)", unsynced)] {
                let disk50 = BenchSamples(sides.disk.map(\.0)).median, redis50 = BenchSamples(sides.redis.map(\.0)).median
                let disk99 = BenchSamples(sides.disk.map(\.1)).median, redis99 = BenchSamples(sides.redis.map(\.1)).median
                table.printRow([name, BenchFormat.microseconds(disk50), BenchFormat.microseconds(redis50),
                                BenchFormat.ratio(redis50 / disk50), BenchFormat.verdict(redis50 / disk50 <= 2),
                                BenchFormat.microseconds(disk99), BenchFormat.microseconds(redis99)])
            }
            print("")
            print("Redis statistics: \(shared.statistics())\n")
        }

        /// Waits (untimed) for the Redis hits' writes to `disk` behind the reader, before the
        /// folder is removed under them.
        static func awaitWrites(_ keys: [String], _ disk: DiskCache) async throws {
            for key in keys {
                var tries = 0
                while disk.entry(forKey: key) == nil, tries < 1_000 {
                    try await Task.sleep(for: .milliseconds(5))
                    tries += 1
                }
            }
        }

        /// Loads every URL once through `pipeline`, one at a time; the seconds each took.
        static func time(_ urls: [URL], _ pipeline: ImagePipeline, expecting source: ImageResponse.Source) async throws -> [Double] {
            let clock = ContinuousClock()
            var times: [Double] = []
            for url in urls {
                let start = clock.now
                let image = try await pipeline.image(for: url)
                times.append(start.duration(to: clock.now).seconds)
                guard image.source == source else {
                    throw BenchError("shared-hit: \(url) came from \(image.source.rawValue), not \(source.rawValue)")
                }
            }
            return times
        }

        static func p50p99(_ times: [Double]) -> (Double, Double) {
            let samples = BenchSamples(times)
            return (samples.median, samples.percentile(99))
        }

        /// The bytes of every image in `<fixtures>/images/`.
        static func fixtureImages(in fixtures: URL) throws -> [Data] {
            let folder = fixtures.appendingPathComponent("images")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            let bodies = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
            guard !bodies.isEmpty else { throw BenchError("shared-hit: no images in \(folder.path)") }
            return bodies
        }
    }
}
