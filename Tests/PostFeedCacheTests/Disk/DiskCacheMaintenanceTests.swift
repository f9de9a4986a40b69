import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache verify and statistics")
struct DiskCacheMaintenanceTests {
    @Test("verify checks every entry, removes the bad ones and reports why")
    func verifyReport() throws {
        // Given five entries, two of them damaged, and one valid entry in the wrong folder
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        for index in 0..<5 {
            try cache.store(Data(repeating: UInt8(index), count: 2000),
                            metadata: CacheEntryMetadata(key: "k\(index)", storedAt: Date()), forKey: "k\(index)")
        }
        try EntryFiles.flipByte(at: 10, of: "k1", in: directory.url)
        var k3 = try EntryFiles.bytes(of: "k3", in: directory.url)
        k3.removeSubrange(1000..<1010)  // bytes lost from the middle: footer intact, lengths disagree
        try EntryFiles.write(k3, for: "k3", in: directory.url)
        let k4 = EntryFiles.path(of: "k4", in: directory.url)
        let wrongFolder = directory.url.appendingPathComponent(k4.lastPathComponent.hasPrefix("00") ? "01" : "00")
        try FileManager.default.createDirectory(at: wrongFolder, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: k4, to: wrongFolder.appendingPathComponent(k4.lastPathComponent))

        // When verifying
        let report = cache.verify()

        // Then the three good ones pass and the others are listed and removed
        #expect(report.checkedEntries == 5)
        #expect(report.validEntries == 2)  // k0 and k2; k4 is misplaced
        #expect(report.problems.count == 3)
        let allRemoved = report.problems.allSatisfy { $0.removed }
        #expect(allRemoved, "\(report.problems)")
        let reasons = Dictionary(uniqueKeysWithValues: report.problems.map { ($0.file.lastPathComponent, $0.reason) })
        #expect(reasons[EntryFiles.path(of: "k1", in: directory.url).lastPathComponent] == "body checksum mismatch")
        #expect(reasons[EntryFiles.path(of: "k3", in: directory.url).lastPathComponent]?.hasPrefix("footer lengths") == true)
        #expect(reasons[k4.lastPathComponent] == "entry file in the wrong fan-out folder")
        #expect(EntryFiles.entryFiles(in: directory.url).count == 2)
        #expect(cache.verify().isClean)
    }

    @Test("statistics count the directory and this instance's traffic")
    func statistics() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration(sizeLimit: 1 << 20))
        let first = clock.now
        for index in 0..<3 {
            try cache.store(Data(count: 100 * (index + 1)),
                            metadata: CacheEntryMetadata(key: "k\(index)", storedAt: first.addingTimeInterval(Double(index) * 60)),
                            forKey: "k\(index)")
        }
        _ = cache.entry(forKey: "k0")
        _ = cache.entry(forKey: "missing")

        let statistics = cache.statistics()

        #expect(statistics.entryCount == 3)
        #expect(statistics.totalBytes == EntryFiles.totalBytes(in: directory.url))
        #expect(statistics.sizeLimit == 1 << 20)
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 1)
        #expect(statistics.writes == 3)
        #expect(statistics.oldestStoredAt == first)
        #expect(statistics.newestStoredAt == first.addingTimeInterval(120))
        #expect(statistics.isWritable)
    }
}
