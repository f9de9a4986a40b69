import Foundation
@testable import PostFeedCache

/// Reaching into a cache directory the way a crash, a disk error or another program
/// would.
enum EntryFiles {
    static let footerSize = 32

    /// `<directory>/<first two hex digits>/<SHA-256 hex of key>`, as documented.
    static func path(of key: String, in directory: URL) -> URL {
        let name = CacheLayout.name(forKey: key)  // pinned by a test against a known SHA-256
        return directory.appendingPathComponent(String(name.prefix(2))).appendingPathComponent(name)
    }

    static func bytes(of key: String, in directory: URL) throws -> Data {
        try Data(contentsOf: path(of: key, in: directory))
    }

    static func write(_ data: Data, for key: String, in directory: URL) throws {
        let url = path(of: key, in: directory)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    static func exists(_ key: String, in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: path(of: key, in: directory).path)
    }

    /// Inverts every bit of the byte at `offset` (negative: from the end).
    static func flipByte(at offset: Int, of key: String, in directory: URL) throws {
        var data = try bytes(of: key, in: directory)
        let index = offset >= 0 ? offset : data.count + offset
        data[index] ^= 0xFF
        try write(data, for: key, in: directory)
    }

    static func truncate(_ key: String, in directory: URL, to length: Int) throws {
        let data = try bytes(of: key, in: directory)
        try write(data.prefix(length), for: key, in: directory)
    }

    /// All entry files (64-hex names in fan-out folders).
    static func entryFiles(in directory: URL) -> [URL] {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return folders.filter { $0.count == 2 }.flatMap { folder -> [URL] in
            let folderURL = directory.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folderURL.path)) ?? []
            return names.filter { $0.count == 64 }.map { folderURL.appendingPathComponent($0) }
        }
    }

    /// Sum of the entry files' sizes.
    static func totalBytes(in directory: URL) -> Int {
        entryFiles(in: directory).reduce(0) { total, url in
            total + ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
        }
    }

    /// Sets a file's modification time (the disk cache's "last used").
    static func setModificationDate(_ date: Date, of url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }
}
