import Dispatch
import Foundation
import PostFeedCache
import PostFeedServer
import Synchronization

/// `postfeed-bench cache`, part 1: the cost of a memory-cache hit, side by side with Foundation's
/// `NSCache` and the floor every thread-safe cache pays: a `Dictionary` under a `Mutex`.
///
/// Every structure holds the same keys (URL-like strings, as the image pipeline uses) and
/// values; each thread looks up random existing keys from its own pre-drawn index list, so
/// no random number generator runs inside the timed loop. Ops per run are fixed and split
/// across the threads; ns/op = wall time / total ops. Structures are interleaved within
/// each repetition so drift on a shared machine hits them all alike; the median is reported.
enum MemoryHitBenchmark {
    struct Row {
        var structure: String
        var entries: Int
        var threads: Int
        var nanosecondsPerOperation: Double
    }

    static let structures = ["locked Dictionary", "MemoryCache", "NSCache"]

    /// Measures every structure for each entry count and thread count.
    static func run(
        entryCounts: [Int], threadCounts: [Int], operations: Int, repetitions: Int, report: (Row) -> Void
    ) {
        for entries in entryCounts {
            let keys = (0..<entries).map { "https://cdn.example.com/images/img-\(String($0 % 72).leftPadded(to: 3, with: "0")).jpg?n=\($0)" }
            let targets: [any LookupTarget] = [
                LockedDictionaryTarget(keys: keys),
                MemoryCacheTarget(keys: keys),
                NSCacheTarget(keys: keys),
            ]
            for threads in threadCounts {
                let perThread = operations / threads
                let indexLists = (0..<threads).map { thread in
                    var generator = SplitMix64(seed: UInt64(0x5EED + thread * 7919 + entries))
                    return (0..<perThread).map { _ in Int32(truncatingIfNeeded: generator.next() % UInt64(entries)) }
                }
                var samples = Array(repeating: [Double](), count: targets.count)
                // One untimed pass warms caches and page tables.
                for target in targets { _ = hammer(target, indexLists: indexLists) }
                for _ in 0..<repetitions {
                    for (position, target) in targets.enumerated() {
                        let wall = hammer(target, indexLists: indexLists)
                        samples[position].append(wall * 1e9 / Double(perThread * threads))
                    }
                }
                for (position, target) in targets.enumerated() {
                    report(Row(structure: target.name, entries: entries, threads: threads,
                               nanosecondsPerOperation: BenchSamples(samples[position]).median))
                }
            }
        }
    }

    /// Wall seconds for every thread to run through its index list.
    private static func hammer(_ target: any LookupTarget, indexLists: [[Int32]]) -> Double {
        let sink = Mutex(0)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: indexLists.count) { thread in
            let found = target.lookUp(indexLists[thread])
            sink.withLock { $0 += found }
        }
        let wall = start.duration(to: clock.now).seconds
        // Every lookup must hit: a miss would make a structure look faster than it is.
        precondition(sink.withLock { $0 } == indexLists.reduce(0) { $0 + $1.count }, "\(target.name) missed")
        return wall
    }
}

/// A structure under test: looks up the keys at `indices`, returns how many hit.
protocol LookupTarget: Sendable {
    var name: String { get }
    func lookUp(_ indices: [Int32]) -> Int
}

/// What a hit returns in every structure: a 256-byte image-like blob.
private func sampleValue(for index: Int) -> Data {
    var data = Data(repeating: UInt8(truncatingIfNeeded: index), count: 256)
    data[0] = UInt8(truncatingIfNeeded: index >> 8)
    return data
}

private final class LockedDictionaryTarget: LookupTarget {
    let name = "locked Dictionary"
    private let keys: [String]
    private let storage: Mutex<[String: Data]>

    init(keys: [String]) {
        self.keys = keys
        var dictionary: [String: Data] = [:]
        dictionary.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { dictionary[key] = sampleValue(for: index) }
        storage = Mutex(dictionary)
    }

    func lookUp(_ indices: [Int32]) -> Int {
        var found = 0
        for index in indices {
            let key = keys[Int(index)]
            if storage.withLock({ $0[key] }) != nil { found += 1 }
        }
        return found
    }
}

private final class MemoryCacheTarget: LookupTarget {
    let name = "MemoryCache"
    private let keys: [String]
    private let cache: MemoryCache<String, Data>

    init(keys: [String]) {
        self.keys = keys
        // No limits: every key stays, so every lookup is a hit (0 = unlimited, as NSCache).
        cache = MemoryCache(countLimit: 0, totalCostLimit: 0)
        for (index, key) in keys.enumerated() { cache.setObject(sampleValue(for: index), forKey: key) }
    }

    func lookUp(_ indices: [Int32]) -> Int {
        var found = 0
        for index in indices where cache.object(forKey: keys[Int(index)]) != nil { found += 1 }
        return found
    }
}

/// `NSCache<NSString, NSData>`, given its keys as `NSString` up front so the benchmark
/// charges it no bridging.
private final class NSCacheTarget: LookupTarget, @unchecked Sendable {
    let name = "NSCache"
    private let keys: [NSString]
    private let cache = NSCache<NSString, NSData>()

    init(keys: [String]) {
        self.keys = keys.map { NSString(string: $0) }
        cache.countLimit = 0
        cache.totalCostLimit = 0
        for (index, key) in self.keys.enumerated() { cache.setObject(sampleValue(for: index) as NSData, forKey: key) }
    }

    func lookUp(_ indices: [Int32]) -> Int {
        var found = 0
        for index in indices where cache.object(forKey: keys[Int(index)]) != nil { found += 1 }
        return found
    }
}

extension String {
    /// The string padded on the left to `width` with `pad`.
    func leftPadded(to width: Int, with pad: Character) -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
