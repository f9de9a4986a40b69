import Foundation
import Testing

/// What a symbolic link planted under a cache root points to.
enum StateLinkKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `outside/sentinel.txt`.
    case toFile
    /// `outside/missing-target`, which must never be created.
    case dangling
    /// `outside/`, holding an old file and a valid-looking state file.
    case toFolder

    var testDescription: String { rawValue }
}

/// `<base>/root/` is the cache root; `<base>/outside/` is what planted links point to. After
/// each operation ``expectOutsideUntouched(_:)`` checks that every byte and mtime outside
/// is as it was and that nothing new appeared there.
struct StateLinkFixture {
    let base: URL
    let root: URL
    let outside: URL
    private let snapshot: [String: Data]
    private let times: [String: Date]

    /// Files put outside: a sentinel, an hour-old file, and for each mode a state file a
    /// followed link would load (and a reset would delete).
    init(outsideFiles: [String: Data] = [:]) throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-state-links-\(UUID().uuidString)")
        root = base.appendingPathComponent("root", isDirectory: true)
        outside = base.appendingPathComponent("outside", isDirectory: true)
        let manager = FileManager.default
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        let anHourAgo = Date().addingTimeInterval(-3600)
        var files = outsideFiles
        files["sentinel.txt"] = Data("outside bytes\n".utf8)
        files["old.txt"] = Data("old outside bytes\n".utf8)
        for (name, bytes) in files {
            let file = outside.appendingPathComponent(name)
            try bytes.write(to: file)
            try manager.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: file.path)
        }
        (snapshot, times) = Self.take(outside)
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }

    var stateFolder: URL { root.appendingPathComponent("State", isDirectory: true) }

    func target(_ kind: StateLinkKind) -> URL {
        switch kind {
        case .toFile: outside.appendingPathComponent("sentinel.txt")
        case .dangling: outside.appendingPathComponent("missing-target")
        case .toFolder: outside
        }
    }

    /// Replaces whatever is at `path` with a link of `kind`.
    func plantLink(_ kind: StateLinkKind, at path: URL) throws {
        try? FileManager.default.removeItem(at: path)
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target(kind).path)
    }

    static func isLink(_ path: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path.path)) != nil
    }

    func expectOutsideUntouched(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (bytes, modified) = Self.take(outside)
        #expect(bytes == snapshot, "after \(step): outside changed: \(bytes.keys.sorted())", sourceLocation: sourceLocation)
        #expect(modified == times, "after \(step): an mtime outside changed", sourceLocation: sourceLocation)
        let created = FileManager.default.fileExists(atPath: target(.dangling).path)
        #expect(!created, "after \(step): the dangling link's target was created", sourceLocation: sourceLocation)
    }

    private static func take(_ folder: URL) -> ([String: Data], [String: Date]) {
        var bytes: [String: Data] = [:]
        var times: [String: Date] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let path = folder.appendingPathComponent(name).path
            // attributesOfItem does not follow a final link (lstat).
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { continue }
            times[name] = attributes[.modificationDate] as? Date
            bytes[name] = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        }
        return (bytes, times)
    }
}

/// The one line a refused link produces.
func expectStateRefusal(_ message: String, naming path: URL, sourceLocation: SourceLocation = #_sourceLocation) {
    let says = message.contains("\(path.path) is a symbolic link; refused")
    #expect(says, "\(message)", sourceLocation: sourceLocation)
    let oneLine = !message.contains("\n")
    #expect(oneLine, "\(message)", sourceLocation: sourceLocation)
}
