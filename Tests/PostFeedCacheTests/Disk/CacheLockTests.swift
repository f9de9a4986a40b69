import Foundation
import Testing
@testable import PostFeedCache

@Suite("CacheLock")
struct CacheLockTests {
    @Test("Holders exclude each other: no increment of the shared ledger is lost")
    func excludesConcurrentHolders() async throws {
        // Given one lock file and eight tasks, each opening it on its own, as processes do
        let directory = try TemporaryDirectory()
        let lock = CacheLock(path: directory.appending(".lock").path)
        let tasks = 4
        let increments = 100

        // When each increments the ledger under the lock
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments {
                        try lock.withExclusiveAccess { ledger in
                            var current = ledger ?? SizeLedger(bytes: 0, entries: 0)
                            // Widen the read-modify-write window: harmless under a working
                            // lock, a near-certain lost update without one.
                            usleep(200)
                            current.bytes += 1
                            current.entries += 1
                            ledger = current
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then every increment landed
        let final = try lock.withExclusiveAccess { $0 }
        #expect(final == SizeLedger(bytes: Int64(tasks * increments), entries: Int64(tasks * increments)))
    }

    @Test("A lock file that cannot be opened is a typed notWritable error")
    func unopenable() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.appending("file")
        try Data().write(to: blocker)
        let lock = CacheLock(path: blocker.appendingPathComponent(".lock").path)
        let error = try #require(throws: DiskCacheError.self) { try lock.withExclusiveAccess { _ in } }
        #expect(error.code == .notWritable)
    }
}
