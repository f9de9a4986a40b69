import Foundation
import Testing

/// What a symbolic link planted in a cache points to.
enum LinkKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `outside/sentinel.txt`, a file the user cares about.
    case toFile
    /// `outside/missing-target`, which must never be created.
    case dangling
    /// `outside/`, a folder with an old file in it, which no sweep may delete.
    case toFolder

    var testDescription: String { rawValue }
}

/// A scratch world for link tests: `<base>/root/` holds the cache, `<base>/outside/` holds
/// what a planted link points to — `sentinel.txt`, an hour-old `old.txt` and an hour-old
/// `.abandoned.tmp` (what every sweep would take if it looked there). After each operation,
/// ``expectOutsideUntouched(_:)`` checks that every byte and mtime outside is as it was and
/// that nothing new appeared there (the dangling link's target above all).
final class LinkFixture: Sendable {
    let base: TemporaryDirectory
    let root: URL
    let outside: URL
    private let snapshot: [String: Snapshot]

    struct Snapshot: Equatable {
        var bytes: Data
        var modified: Date
    }

    init(_ label: String = #function) throws {
        base = try TemporaryDirectory(label)
        root = base.appending("root")
        outside = base.appending("outside")
        let manager = FileManager.default
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        let anHourAgo = Date().addingTimeInterval(-3600)
        for name in ["sentinel.txt", "old.txt", ".abandoned.tmp"] {
            let file = outside.appendingPathComponent(name)
            try Data("outside bytes of \(name)\n".utf8).write(to: file)
            try manager.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: file.path)
        }
        snapshot = Self.take(outside)
    }

    /// The cache folder the tests open: `<root>/PageCache`.
    var cacheDirectory: URL { root.appendingPathComponent("PageCache", isDirectory: true) }

    /// What a link of `kind` points to.
    func target(_ kind: LinkKind) -> URL {
        switch kind {
        case .toFile: outside.appendingPathComponent("sentinel.txt")
        case .dangling: outside.appendingPathComponent("missing-target")
        case .toFolder: outside
        }
    }

    /// Replaces whatever is at `path` with a link of `kind`, its own mtime an hour back (so
    /// a sweep judging the link by its age would take it).
    func plantLink(_ kind: LinkKind, at path: URL) throws {
        try? FileManager.default.removeItem(at: path)
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target(kind).path)
        let old = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        _ = utimensat(AT_FDCWD, path.path, [old, old], AT_SYMLINK_NOFOLLOW)
    }

    /// Whether `path` is still a symbolic link.
    static func isLink(_ path: URL) -> Bool {
        var status = stat()
        return lstat(path.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Every file outside is as it was, and nothing new is there.
    func expectOutsideUntouched(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let now = Self.take(outside)
        #expect(now == snapshot, "after \(step): outside changed: \(now.keys.sorted()) vs \(snapshot.keys.sorted())",
                sourceLocation: sourceLocation)
        let created = FileManager.default.fileExists(atPath: target(.dangling).path)
        #expect(!created, "after \(step): the dangling link's target was created", sourceLocation: sourceLocation)
    }

    private static func take(_ folder: URL) -> [String: Snapshot] {
        var files: [String: Snapshot] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            files[name] = Snapshot(bytes: bytes, modified: modified)
        }
        return files
    }
}

/// The one line a refused link must produce: the full path, then "is a symbolic link; refused".
func expectRefusal(_ message: String, naming path: URL, sourceLocation: SourceLocation = #_sourceLocation) {
    let says = message.contains("\(path.path) is a symbolic link; refused")
    #expect(says, "\(message)", sourceLocation: sourceLocation)
    let oneLine = !message.contains("\n")
    #expect(oneLine, "\(message)", sourceLocation: sourceLocation)
}
