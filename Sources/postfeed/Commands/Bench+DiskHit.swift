import Dispatch
import Foundation
import PostFeedCache
import Synchronization

/// `bench cache`, part 2: the latency of a disk-cache hit, `DiskCache.entry(forKey:)`,
/// as the cache grows from a thousand entries to a hundred thousand.
///
/// The cache is filled through its public `store` (fsync and all, two writer threads),
/// with metadata shaped like the image pipeline's. Then a fixed sequence of random
/// existing keys is read twice: a warm-up pass (OS page cache warm, each entry's last-use
/// time fresh so no read pays for an `futimens`), then the measured pass, one clock
/// reading around each call.
enum DiskHitBenchmark {
    struct Configuration {
        var entries: Int
        var entrySize: Int
    }

    struct Row {
        var configuration: Configuration
        var fillSeconds: Double
        var p50: Double
        var p99: Double
        var mean: Double
        var lookups: Int
    }

    static func run(_ configuration: Configuration, lookups: Int, scratch: ScratchDirectory) throws -> Row {
        let directory = scratch.appending("disk-\(configuration.entries)-\(configuration.entrySize)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Room for every entry (body, ~300 bytes of metadata, footer) with no trim.
        let sizeLimit = configuration.entries * (configuration.entrySize + 4096) * 2
        let cache = try DiskCache(directory: directory, configuration: DiskCache.Configuration(sizeLimit: sizeLimit))
        let keys = (0..<configuration.entries).map { "https://cdn.example.com/images/img-\($0 % 72).jpg?n=\($0)" }

        let fillSeconds = try fill(cache, keys: keys, entrySize: configuration.entrySize)

        var generator = SplitMix(seed: 0xD15C + UInt64(configuration.entries))
        let sequence = (0..<lookups).map { _ in keys[Int(generator.next() % UInt64(keys.count))] }
        for key in sequence where cache.entry(forKey: key) == nil {
            throw CLIError("disk benchmark: the entry for \(key) is missing after the fill")
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(lookups)
        let clock = ContinuousClock()
        for key in sequence {
            let start = clock.now
            let entry = cache.entry(forKey: key)
            latencies.append(start.duration(to: clock.now).seconds)
            precondition(entry != nil)
        }
        let samples = BenchSamples(latencies)
        return Row(configuration: configuration, fillSeconds: fillSeconds, p50: samples.median,
                   p99: samples.percentile(99), mean: samples.mean, lookups: lookups)
    }

    /// Stores every key with a distinct body; returns the wall time.
    private static func fill(_ cache: DiskCache, keys: [String], entrySize: Int) throws -> Double {
        var generator = SplitMix(seed: 0xB0D7)
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
        if let failure = failures.first { throw CLIError("disk benchmark: filling the cache failed: \(failure)") }
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
