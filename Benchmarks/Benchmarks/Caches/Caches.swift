import Benchmark
import Foundation
import PostFeedCache
import PostFeedServer

// Micro benchmarks of the two caches' hit paths, through their public API only:
// `MemoryCache.object(forKey:)` and `DiskCache.entry(forKey:)`, on random existing keys.
// The process-level tables (side by side with NSCache and a locked Dictionary, 100k disk
// entries, p50/p99) are `postfeed-bench cache`.
//
//   swift package benchmark --target Caches

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000)

    for entries in [1_000, 100_000] {
        Benchmark("MemoryCache hit (\(CacheFixture.label(entries)) entries)", configuration: configuration) { benchmark, fixture in
            // 1,000 lookups per iteration (scaling factor kilo), keys drawn before the timing.
            for index in benchmark.scaledIterations {
                blackHole(fixture.cache.object(forKey: fixture.lookup(index)))
            }
        } setup: {
            MemoryHitFixture(entries: entries)
        }
    }

    Benchmark("DiskCache hit (1k entries of 2 KiB)", configuration: configuration) { benchmark, fixture in
        for index in benchmark.scaledIterations {
            blackHole(fixture.cache.entry(forKey: fixture.lookup(index)))
        }
    } setup: {
        try DiskHitFixture(entries: 1_000, entrySize: 2 * 1024)
    } teardown: {
        DiskHitFixture.removeDirectories()
    }
}

/// Keys shaped like the image pipeline's, and a fixed sequence of lookups among them.
enum CacheFixture {
    static func keys(_ count: Int) -> [String] {
        (0..<count).map { "https://cdn.example.com/images/img-\($0 % 72).jpg?n=\($0)" }
    }

    /// 4,096 random existing keys from a seeded generator: the same on every run.
    static func lookups(in keys: [String], seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<4_096).map { _ in keys[Int(generator.next() % UInt64(keys.count))] }
    }

    static func label(_ count: Int) -> String {
        count >= 1000 && count % 1000 == 0 ? "\(count / 1000)k" : "\(count)"
    }
}

/// A `MemoryCache` with no limits holding every key (256-byte values), so each lookup hits.
struct MemoryHitFixture {
    let cache: MemoryCache<String, Data>
    let lookups: [String]

    init(entries: Int) {
        let keys = CacheFixture.keys(entries)
        cache = MemoryCache(countLimit: 0, totalCostLimit: 0)
        for (index, key) in keys.enumerated() {
            cache.setObject(Data(repeating: UInt8(truncatingIfNeeded: index), count: 256), forKey: key)
        }
        lookups = CacheFixture.lookups(in: keys, seed: 0x5EED + UInt64(entries))
    }

    func lookup(_ index: Int) -> String { lookups[index & 4_095] }
}

/// A `DiskCache` in a scratch folder, filled through its public `store` with metadata
/// shaped like the image pipeline's; one untimed pass over the lookups warms the OS page
/// cache and each entry's last-use time.
struct DiskHitFixture {
    let cache: DiskCache
    let lookups: [String]

    static let parent = FileManager.default.temporaryDirectory
        .appendingPathComponent("postfeed-microbench-disk-\(getpid())", isDirectory: true)

    init(entries: Int, entrySize: Int) throws {
        let directory = Self.parent.appendingPathComponent("\(entries)-\(entrySize)", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        cache = try DiskCache(
            directory: directory,
            configuration: DiskCache.Configuration(sizeLimit: entries * (entrySize + 4096) * 2))
        let keys = CacheFixture.keys(entries)
        let now = Date()
        for (index, key) in keys.enumerated() {
            var body = Data(repeating: UInt8(truncatingIfNeeded: index), count: entrySize)
            withUnsafeBytes(of: UInt64(index).littleEndian) { body.replaceSubrange(0..<8, with: $0) }
            let metadata = CacheEntryMetadata(
                key: key, url: key, etag: "\"\(String(index, radix: 16))-\(entrySize)\"",
                lastModified: "Mon, 02 Jun 2025 10:00:00 GMT", contentType: "image/jpeg",
                expiresAt: now.addingTimeInterval(86_400), storedAt: now,
                attributes: ["width": "640", "height": "480", "format": "jpeg"])
            try cache.store(body, metadata: metadata, forKey: key)
        }
        lookups = CacheFixture.lookups(in: keys, seed: 0xD15C + UInt64(entries))
        for key in lookups where cache.entry(forKey: key) == nil {
            throw FixtureError(description: "DiskCache at \(directory.path) has no entry for \(key) after the fill")
        }
    }

    func lookup(_ index: Int) -> String { lookups[index & 4_095] }

    static func removeDirectories() {
        try? FileManager.default.removeItem(at: parent)
    }
}

/// Why a fixture could not be set up.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
