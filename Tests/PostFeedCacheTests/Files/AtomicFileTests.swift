import Foundation
import Testing
@testable import PostFeedCache

@Suite("AtomicFile and LockFile")
struct AtomicFileTests {
    @Test("A write replaces the file whole and leaves no temporary file; a read gets it back")
    func writeThenRead() throws {
        // Given a file with old contents
        let directory = try TemporaryDirectory()
        let file = AtomicFile(path: directory.appending("state.json").path)
        try file.write(Data("old".utf8))

        // When it is replaced
        try file.write(Data("new contents".utf8))

        // Then a read sees the new bytes, and the folder holds only the file
        #expect(try file.read(maximumBytes: 100) == .data(Data("new contents".utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["state.json"])
    }

    @Test("A read is bounded: a larger file is reported with its size, not read")
    func boundedRead() throws {
        let directory = try TemporaryDirectory()
        let file = AtomicFile(path: directory.appending("big").path)
        try file.write(Data(count: 1000))
        #expect(try file.read(maximumBytes: 999) == .tooLarge(byteCount: 1000))
        #expect(try file.read(maximumBytes: 1000) == .data(Data(count: 1000)))
    }

    @Test("Errors keep errno and name the file")
    func errorsNameTheFile() throws {
        let directory = try TemporaryDirectory()
        let missing = AtomicFile(path: directory.appending("missing").path)
        let readError = try #require(throws: SystemCallError.self) { try missing.read(maximumBytes: 10) }
        #expect(readError.operation == "open")
        #expect(readError.errno == ENOENT)
        #expect(readError.description.contains(missing.path))

        let folder = AtomicFile(path: directory.url.path)
        let folderError = try #require(throws: SystemCallError.self) { try folder.read(maximumBytes: 10) }
        #expect(folderError.errno == EISDIR)

        let inMissingFolder = AtomicFile(path: directory.appending("no-such-folder/file").path)
        let writeError = try #require(throws: SystemCallError.self) { try inMissingFolder.write(Data("x".utf8)) }
        #expect(writeError.operation == "open")
        #expect(writeError.errno == ENOENT)
        #expect(writeError.path.hasPrefix(directory.appending("no-such-folder/.file.").path))
    }

    @Test("Lock holders exclude each other: no read-modify-write of a shared file is lost")
    func lockExcludes() async throws {
        // Given a counter file and tasks that each increment it under the lock
        let directory = try TemporaryDirectory()
        let counter = AtomicFile(path: directory.appending("counter").path)
        let lock = LockFile(path: directory.appending(".lock").path)
        try counter.write(Data("0".utf8))
        let tasks = 4
        let increments = 50

        // When they run at once
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments {
                        try lock.withExclusiveLock {
                            guard case .data(let data) = try counter.read(maximumBytes: 32),
                                  let value = Int(String(decoding: data, as: UTF8.self)) else { return }
                            usleep(100)  // widens the window a missing lock would lose updates in
                            try counter.write(Data(String(value + 1).utf8), syncingFolder: false)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then every increment landed
        #expect(try counter.read(maximumBytes: 32) == .data(Data(String(tasks * increments).utf8)))
    }

    @Test("A lock that cannot be taken throws naming the lock file; the best-effort variant runs its body anyway")
    func unavailableLock() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.appending("a-file")
        try Data().write(to: blocker)
        let lock = LockFile(path: blocker.appendingPathComponent(".lock").path)

        var ran = false
        let error = try #require(throws: SystemCallError.self) { try lock.withExclusiveLock { ran = true } }
        #expect(!ran)
        #expect(error.errno == ENOTDIR)
        #expect(error.path == lock.path)

        let valueUnderLock = lock.withExclusiveLockIfAvailable { 42 }
        #expect(valueUnderLock == 42)
    }
}
