import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache shared by two processes", .serialized)
struct DiskCacheMultiProcessTests {
    struct HammerSummary: Decodable, Sendable {
        var writer: Int
        var reads: Int
        var hits: Int
        var writes: Int
        var updates: Int
        var corruptEntriesRemoved: Int
        var problemCount: Int
        var problems: [String]
    }

    @Test("Two processes storing, adopting, updating and reading the same keys see no torn entry and lose none",
          .timeLimit(.minutes(5)))
    func twoProcessesOneDirectory() async throws {
        // Given one directory and twelve shared keys
        let directory = try TemporaryDirectory()
        let keys = 12

        // When two processes hammer it at once
        async let first = StressProcess.runForSummary(["hammer", directory.url.path, "1", String(keys), "600"], as: HammerSummary.self)
        async let second = StressProcess.runForSummary(["hammer", directory.url.path, "2", String(keys), "600"], as: HammerSummary.self)
        let summaries = try await [first, second]

        // Then neither read a torn or foreign body, nor met a corrupt file
        for summary in summaries {
            #expect(summary.problemCount == 0, "writer \(summary.writer): \(summary.problems)")
            #expect(summary.corruptEntriesRemoved == 0, "writer \(summary.writer) met corrupt entries")
            #expect(summary.writes > 0 && summary.hits > 0, "writer \(summary.writer) did no real work")
        }
        // And every key is present, valid, and its metadata belongs to its body
        let cache = try DiskCache(directory: directory.url, configuration: .init(warningHandler: { _ in }))
        let report = cache.verify()
        #expect(report.isClean, "\(report.problems)")
        #expect(report.validEntries == keys)
        for index in 0..<keys {
            let key = "key-\(index)"
            let entry = try #require(cache.entry(forKey: key), "\(key) was lost")
            #expect(StressBodyCheck.problem(in: entry, key: key) == nil)
        }
        let ledger = try #require(SizeLedger.decode(try Data(contentsOf: directory.appending(".lock"))))
        #expect(ledger == SizeLedger(bytes: Int64(report.validBytes), entries: Int64(keys)),
                "the shared size ledger drifted")
    }
}
