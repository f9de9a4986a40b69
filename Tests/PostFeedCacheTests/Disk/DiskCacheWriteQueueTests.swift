import Dispatch
import Foundation
import Synchronization
import Testing
@testable import PostFeedCache

@Suite("DiskCache write queue", .timeLimit(.minutes(1)))
struct DiskCacheWriteQueueTests {
    /// What happened, in order, across tasks and the write queue.
    final class EventLog: Sendable {
        private let events = Mutex<[String]>([])
        func append(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    static func metadata(_ key: String) -> CacheEntryMetadata {
        CacheEntryMetadata(key: key, expiresAt: .distantFuture, storedAt: Date())
    }

    /// Submits a write that holds `cache`'s queue until `gate` is signalled; returns once it runs.
    static func blockQueue(of cache: DiskCache, until gate: DispatchSemaphore) async throws -> Task<Void, Never> {
        let started = Atomic(false)
        let task = Task {
            await cache.performWrite {
                started.store(true, ordering: .releasing)
                gate.wait()
            }
        }
        while !started.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        return task
    }

    @Test("Writes run on the cache's own queue, off the cooperative pool, and return their result")
    func writesRunOnTheCachesQueue() async throws {
        // Given two caches
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.appending("a"))
        let other = try DiskCache(directory: directory.appending("b"))

        // When a store is submitted
        let (onOwnQueue, onOtherQueue) = try await cache.performWrite { () throws -> (Bool, Bool) in
            try cache.store(Data("x".utf8), metadata: Self.metadata("k"), forKey: "k")
            return (cache.writeQueue.isCurrent, other.writeQueue.isCurrent)
        }

        // Then it ran on this cache's queue only, and is on disk
        #expect(onOwnQueue)
        #expect(!onOtherQueue)
        #expect(!cache.writeQueue.isCurrent, "the test itself runs on the pool")
        #expect(cache.entry(forKey: "k")?.data == Data("x".utf8))
    }

    @Test("A write's error reaches the caller")
    func writeErrorsReachTheCaller() async throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url)
        let error = await #expect(throws: DiskCacheError.self) {
            try await cache.performWrite { () throws in
                try cache.updateMetadata(forKey: "absent") { _ in }
            }
        }
        #expect(error?.code == .entryNotFound)
    }

    @Test("flush() returns only after every write submitted before it has finished")
    func flushWaitsForEarlierWrites() async throws {
        // Given a write holding the queue, and more writes queued behind it
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url)
        let gate = DispatchSemaphore(value: 0)
        let events = EventLog()
        let blocker = try await Self.blockQueue(of: cache, until: gate)
        let writes = (0..<3).map { number in
            Task {
                try await cache.performWrite {
                    try cache.store(Data([UInt8(number)]), metadata: Self.metadata("k\(number)"), forKey: "k\(number)")
                    events.append("write \(number)")
                }
            }
        }

        // (Unstructured tasks start in any order: give the writes time to reach the queue
        // before flush is submitted, as the test means.)
        try await Task.sleep(for: .milliseconds(50))

        // When flush is called while they wait
        let flush = Task {
            await cache.flush()
            events.append("flush")
        }
        try await Task.sleep(for: .milliseconds(50))  // a chance to return early, if it would
        #expect(events.all.isEmpty, "flush returned while writes were still queued")
        gate.signal()
        await blocker.value
        await flush.value

        // Then every write had finished when it returned
        let seen = events.all
        #expect(seen.last == "flush")
        #expect(Set(seen.dropLast()) == ["write 0", "write 1", "write 2"], "\(seen)")
        for write in writes { try await write.value }
        for number in 0..<3 { #expect(cache.entry(forKey: "k\(number)")?.data == Data([UInt8(number)])) }
    }

    @Test("Two caches' queues are independent: one stuck write does not hold up the other cache")
    func queuesAreIndependent() async throws {
        // Given cache A's queue held by a write
        let directory = try TemporaryDirectory()
        let first = try DiskCache(directory: directory.appending("a"))
        let second = try DiskCache(directory: directory.appending("b"))
        let gate = DispatchSemaphore(value: 0)
        let blocker = try await Self.blockQueue(of: first, until: gate)
        defer { gate.signal() }

        // When cache B writes and flushes
        try await second.performWrite {
            try second.store(Data("b".utf8), metadata: Self.metadata("b"), forKey: "b")
        }
        await second.flush()

        // Then B is done while A's write still waits
        #expect(second.entry(forKey: "b")?.data == Data("b".utf8))
        gate.signal()
        await blocker.value
        await first.flush()
    }
}
