import Foundation
import Testing
@testable import PostFeedCache

@Suite("DiskCache round trip")
struct DiskCacheRoundTripTests {
    static func metadata(_ key: String, at date: Date) -> CacheEntryMetadata {
        CacheEntryMetadata(
            key: key, url: key, etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            contentType: "image/jpeg", expiresAt: date.addingTimeInterval(3600), storedAt: date,
            attributes: ["width": "640", "height": "480"])
    }

    @Test("A stored entry reads back with its bytes and metadata")
    func storeThenRead() throws {
        // Given a cache
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let key = "https://example.test/images/1.jpg"

        // When an entry is stored
        try cache.store(body, metadata: Self.metadata(key, at: clock.now), forKey: key)

        // Then a new cache on the same directory reads it back exactly
        let reopened = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let entry = try #require(reopened.entry(forKey: key))
        #expect(entry.data == body)
        #expect(entry.metadata == Self.metadata(key, at: clock.now))
        #expect(reopened.entry(forKey: "https://example.test/other.jpg") == nil)
        #expect(reopened.statistics().hits == 1)
        #expect(reopened.statistics().misses == 1)
    }

    @Test("The file follows the documented layout: body first, then metadata, then a 32-byte footer")
    func onDiskLayout() throws {
        // Given an entry stored for the key "abc"
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let body = Data("hello, body".utf8)
        try cache.store(body, metadata: CacheEntryMetadata(key: "ignored", storedAt: Date()), forKey: "abc")

        // Then it sits at ba/<SHA-256("abc")>
        let expected = directory.url.appendingPathComponent("ba")
            .appendingPathComponent("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let file = try Data(contentsOf: expected)

        // And starts with the body and ends with a footer naming its lengths
        #expect(file.prefix(body.count) == body)
        let footer = [UInt8](file.suffix(EntryFiles.footerSize))
        #expect(Array(footer[0..<4]) == Array("PFCE".utf8))
        #expect(footer[4] == 2 && footer[5] == 0)                      // version 2
        #expect(Int(footer[8]) == body.count)                            // body length (LE)
        let metadataLength = Int(footer[16]) | Int(footer[17]) << 8
        #expect(body.count + metadataLength + EntryFiles.footerSize == file.count)
        let json = file[body.count..<(body.count + metadataLength)]
        let metadata = try JSONDecoder().decode(CacheEntryMetadata.self, from: json)
        #expect(metadata.key == "abc")  // the forKey argument wins over metadata.key
        // And the checksums are the CRC-32C of the body and of the metadata JSON
        #expect(Array(footer[24..<28]) == EntryCodec.checksum(body))
        #expect(Array(footer[28..<32]) == EntryCodec.checksum(Data(json)))
    }

    @Test("CRC-32C gives the standard check values, also fed in pieces")
    func crc32cCheckValues() {
        #expect(CRC32C.checksum(Data()) == 0)
        #expect(CRC32C.checksum(Data("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum(Data(repeating: 0, count: 32)) == 0x8A91_36AA)  // RFC 3720 B.4
        #expect(CRC32C.checksum(Data(repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        let long = Data((0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        var pieces = CRC32C()
        for start in stride(from: 0, to: long.count, by: 4_099) {
            pieces.update(long[start..<min(start + 4_099, long.count)])
        }
        #expect(pieces.value == CRC32C.checksum(long))
        #expect(CRC32C.checksum(long) != CRC32C.checksum(long.dropLast()))
    }

    @Test("An entry of format 1 (SHA-256 footer) is a miss and is removed")
    func formatOneEntryIsAMiss() throws {
        // Given a cache, and a format-1 file at an entry's path: 88-byte footer, version 1
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        try cache.store(Data("new".utf8), metadata: CacheEntryMetadata(key: "abc", storedAt: Date()), forKey: "abc")
        let path = directory.url.appendingPathComponent("ba")
            .appendingPathComponent("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var old = Data("old body".utf8) + Data(#"{"key":"abc"}"#.utf8) + Data("PFCE".utf8)
        old += Data([1, 0, 88, 0]) + Data([8, 0, 0, 0, 0, 0, 0, 0]) + Data([13, 0, 0, 0, 0, 0, 0, 0])
        old += Data(repeating: 0xAB, count: 64)
        try old.write(to: path)

        // Then it is not served, and it is gone
        #expect(cache.entry(forKey: "abc") == nil)
        #expect(!FileManager.default.fileExists(atPath: path.path))
    }

    @Test("storeFile adopts a streamed file by renaming it, and the entry reads back")
    func storeFileAdoptsTemporaryFile() throws {
        // Given a body streamed into the cache's temporary directory
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let body = Data(repeating: 0xAB, count: 3 << 20)
        let download = cache.temporaryDirectory.appendingPathComponent("download-1")
        try body.write(to: download)
        let inode = try FileManager.default.attributesOfItem(atPath: download.path)[.systemFileNumber] as? Int

        // When the cache adopts it
        let key = "https://example.test/big.png"
        try cache.storeFile(at: download, metadata: Self.metadata(key, at: clock.now), forKey: key)

        // Then the download is gone, the entry is the same file (no copy), and reads back
        #expect(!FileManager.default.fileExists(atPath: download.path))
        let entryPath = EntryFiles.path(of: key, in: directory.url).path
        #expect(try FileManager.default.attributesOfItem(atPath: entryPath)[.systemFileNumber] as? Int == inode)
        let entry = try #require(cache.entry(forKey: key))
        #expect(entry.data == body)
        #expect(entry.metadata.etag == "\"v1\"")
    }

    @Test("storeFile also adopts a file from elsewhere, and an empty body")
    func storeFileFromOtherFolderAndEmpty() throws {
        let directory = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let file = elsewhere.appending("body")
        try Data("streamed".utf8).write(to: file)
        let empty = elsewhere.appending("empty")
        try Data().write(to: empty)

        try cache.storeFile(at: file, metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        try cache.storeFile(at: empty, metadata: CacheEntryMetadata(key: "e", storedAt: Date()), forKey: "e")

        #expect(cache.entry(forKey: "k")?.data == Data("streamed".utf8))
        #expect(cache.entry(forKey: "e")?.data == Data())
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("storeFile of a missing file throws a typed error naming it")
    func storeFileMissing() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let missing = directory.appending("nope")
        let error = try #require(throws: DiskCacheError.self) {
            try cache.storeFile(at: missing, metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        }
        #expect(error.code == .temporaryFileUnavailable)
        #expect(error.description.contains(missing.path))
        #expect(cache.isWritable)
    }

    @Test("Storing again replaces the entry")
    func overwrite() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        try cache.store(Data("one".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        try cache.store(Data("two".utf8), metadata: CacheEntryMetadata(key: "k", storedAt: Date()), forKey: "k")
        #expect(cache.entry(forKey: "k")?.data == Data("two".utf8))
        #expect(cache.statistics().entryCount == 1)
    }

    @Test("updateMetadata changes metadata atomically and keeps the body")
    func updateMetadata() throws {
        // Given an entry expiring in an hour
        let directory = try TemporaryDirectory()
        let clock = ManualDate()
        let cache = try DiskCache(directory: directory.url, configuration: clock.configuration())
        let key = "https://example.test/page/1"
        try cache.store(Data("page one".utf8), metadata: Self.metadata(key, at: clock.now), forKey: key)

        // When a 304 refreshes its expiry and validator
        let refreshed = clock.now.addingTimeInterval(7200)
        try cache.updateMetadata(forKey: key) { metadata in
            metadata.expiresAt = refreshed
            metadata.etag = "\"v2\""
            metadata.key = "an attempt to rename"
        }

        // Then the body is unchanged, the metadata updated, and the key kept
        let entry = try #require(cache.entry(forKey: key))
        #expect(entry.data == Data("page one".utf8))
        #expect(entry.metadata.expiresAt == refreshed)
        #expect(entry.metadata.etag == "\"v2\"")
        #expect(entry.metadata.key == key)
        #expect(cache.verify().isClean)
    }

    @Test("updateMetadata of a missing entry throws entryNotFound")
    func updateMissing() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let error = try #require(throws: DiskCacheError.self) {
            try cache.updateMetadata(forKey: "absent") { $0.etag = "x" }
        }
        #expect(error.code == .entryNotFound)
        #expect(error.description.contains("absent"))
    }

    @Test("removeEntry and removeAll delete entries, and the size ledger follows")
    func removal() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        for index in 0..<5 {
            try cache.store(Data(count: 1000), metadata: CacheEntryMetadata(key: "", storedAt: Date()), forKey: "k\(index)")
        }
        cache.removeEntry(forKey: "k0")
        #expect(cache.entry(forKey: "k0") == nil)
        #expect(!EntryFiles.exists("k0", in: directory.url))
        #expect(cache.statistics().entryCount == 4)

        try cache.removeAll()
        #expect(EntryFiles.entryFiles(in: directory.url).isEmpty)
        #expect(cache.entry(forKey: "k1") == nil)
        let ledger = try Data(contentsOf: directory.appending(".lock"))
        #expect(SizeLedger.decode(ledger) == SizeLedger(bytes: 0, entries: 0))
    }

    @Test("Keys of any shape map to valid file names")
    func unusualKeys() throws {
        let directory = try TemporaryDirectory()
        let cache = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let keys = ["", "/", "../../etc/passwd", "ключ 🔑", String(repeating: "x", count: 10_000)]
        for key in keys {
            try cache.store(Data(key.utf8), metadata: CacheEntryMetadata(key: key, storedAt: Date()), forKey: key)
        }
        for key in keys {
            #expect(cache.entry(forKey: key)?.data == Data(key.utf8))
        }
        #expect(EntryFiles.entryFiles(in: directory.url).count == keys.count)
    }

    @Test("Several tasks of one process storing and reading the same keys never see a torn entry")
    func concurrentInProcess() async throws {
        let directory = try TemporaryDirectory()
        let first = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let second = try DiskCache(directory: directory.url, configuration: ManualDate().configuration())
        let bad = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let cache = task.isMultiple(of: 2) ? first : second
                    var bad = 0
                    for step in 0..<60 {
                        let key = "k\(step % 5)"
                        let body = Data(repeating: UInt8(task), count: 2000 + step)
                        if step.isMultiple(of: 2) {
                            try? cache.store(body, metadata: CacheEntryMetadata(key: key, storedAt: Date(),
                                attributes: ["task": String(task), "length": String(body.count)]), forKey: key)
                        } else if let entry = cache.entry(forKey: key) {
                            let expected = entry.metadata.attributes["task"].flatMap(UInt8.init)
                            let length = entry.metadata.attributes["length"].flatMap(Int.init)
                            if entry.data.count != length || entry.data.contains(where: { $0 != expected }) { bad += 1 }
                        }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(bad == 0)
        #expect(first.statistics().corruptEntriesRemoved + second.statistics().corruptEntriesRemoved == 0)
        let report = first.verify()
        #expect(report.isClean)
        #expect(report.validEntries == 5)
        let ledger = try #require(SizeLedger.decode(try Data(contentsOf: directory.appending(".lock"))))
        #expect(ledger == SizeLedger(bytes: Int64(report.validBytes), entries: 5), "the size ledger lost updates")
    }
}
