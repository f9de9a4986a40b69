import Dispatch
import Foundation
import PostFeedCache
import PostFeedServer
import Synchronization

/// `postfeed-bench cache`, part 2: the latency of a disk-cache hit, `DiskCache.entry(forKey:)`,
/// as the cache grows from a thousand entries to a hundred thousand.
///
/// Every cache is filled first, through its public `store` (fsync and all, two writer
/// threads), with metadata shaped like the image pipeline's. Each then gets a fixed
/// sequence of random existing keys and one untimed pass over it (OS page cache warm,
/// each entry's last-use time fresh so no read pays for an `futimens`). Then the timed
/// passes run round-robin over the caches — one clock reading around each call — so
/// drift on a shared machine reaches every size alike; each row is the median over the
/// passes of that cache's p50, p99 and mean.
enum DiskHitBenchmark {
    struct Configuration: Sendable {
        var entries: Int
        var entrySize: Int
    }

    struct Row: Sendable {
        var configuration: Configuration
        var fillSeconds: Double
        var p50: Double
        var p99: Double
        var mean: Double
    }

    static func run(_ configurations: [Configuration], lookups: Int, passes: Int, scratch: ScratchDirectory) throws -> [Row] {
        var caches: [(cache: DiskCache, sequence: [String], fillSeconds: Double)] = []
        defer {
            for configuration in configurations {
                try? FileManager.default.removeItem(at: directory(for: configuration, in: scratch))
            }
        }
        for configuration in configurations {
            // Room for every entry (body, ~300 bytes of metadata, footer) with no trim.
            let sizeLimit = configuration.entries * (configuration.entrySize + 4096) * 2
            let cache = try DiskCache(directory: directory(for: configuration, in: scratch),
                                      configuration: DiskCache.Configuration(sizeLimit: sizeLimit))
            let keys = (0..<configuration.entries).map { "https://cdn.example.com/images/img-\($0 % 72).jpg?n=\($0)" }
            let fillSeconds = try fill(cache, keys: keys, entrySize: configuration.entrySize)
            var generator = SplitMix64(seed: 0xD15C + UInt64(configuration.entries))
            let sequence = (0..<lookups).map { _ in keys[Int(generator.next() % UInt64(keys.count))] }
            caches.append((cache, sequence, fillSeconds))
        }
        for (cache, sequence, _) in caches {
            for key in sequence where cache.entry(forKey: key) == nil {
                throw BenchError("disk benchmark: the entry for \(key) is missing after the fill")
            }
        }
        var samples = Array(repeating: (p50: [Double](), p99: [Double](), mean: [Double]()), count: caches.count)
        var latencies = [Double](repeating: 0, count: lookups)
        let clock = ContinuousClock()
        for _ in 0..<passes {
            for (position, (cache, sequence, _)) in caches.enumerated() {
                for (index, key) in sequence.enumerated() {
                    let start = clock.now
                    let entry = cache.entry(forKey: key)
                    latencies[index] = start.duration(to: clock.now).seconds
                    precondition(entry != nil)
                }
                let pass = BenchSamples(latencies)
                samples[position].p50.append(pass.median)
                samples[position].p99.append(pass.percentile(99))
                samples[position].mean.append(pass.mean)
            }
        }
        return configurations.indices.map { position in
            Row(configuration: configurations[position], fillSeconds: caches[position].fillSeconds,
                p50: BenchSamples(samples[position].p50).median, p99: BenchSamples(samples[position].p99).median,
                mean: BenchSamples(samples[position].mean).median)
        }
    }

    private static func directory(for configuration: Configuration, in scratch: ScratchDirectory) -> URL {
        scratch.appending("disk-\(configuration.entries)-\(configuration.entrySize)")
    }

    /// Stores every key with a distinct body; returns the wall time.
    private static func fill(_ cache: DiskCache, keys: [String], entrySize: Int) throws -> Double {
        var generator = SplitMix64(seed: 0xB0D7)
        var template = Data(count: entrySize)
        template.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        let body = template
        let now = Date()
        let writers = 2
        let failures = FailureBox()
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in stride(from: writer, to: keys.count, by: writers) {
                var data = body
                withUnsafeBytes(of: UInt64(index).littleEndian) { data.replaceSubrange(0..<8, with: $0) }
                let metadata = CacheEntryMetadata(
                    key: keys[index], url: keys[index], etag: "\"\(String(index, radix: 16))-\(entrySize)\"",
                    lastModified: "Mon, 02 Jun 2025 10:00:00 GMT", contentType: "image/jpeg",
                    expiresAt: now.addingTimeInterval(86_400), storedAt: now,
                    attributes: ["width": "640", "height": "480", "format": "jpeg"])
                do {
                    try cache.store(data, metadata: metadata, forKey: keys[index])
                } catch {
                    failures.record("\(error)")
                    return
                }
            }
        }
        let seconds = start.duration(to: clock.now).seconds
        if let failure = failures.first { throw BenchError("disk benchmark: filling the cache failed: \(failure)") }
        return seconds
    }
}

/// The first failure reported by any of several threads.
final class FailureBox: Sendable {
    private let message = Mutex<String?>(nil)

    func record(_ text: String) {
        message.withLock { if $0 == nil { $0 = text } }
    }

    var first: String? { message.withLock { $0 } }
}
