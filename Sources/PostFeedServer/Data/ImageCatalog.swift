import Foundation
import NIOCore

/// One image file, loaded into memory with its validators.
struct ImageFile: Sendable {
    let name: String
    let bytes: ByteBuffer
    let contentType: String
    let etag: EntityTag
    let lastModified: Date
}

/// The images of `Fixtures/images/`, read once at start-up.
///
/// Only regular files directly inside the folder are listed, and a request can only name one
/// of them: no path built from the request ever reaches the file system, so traversal
/// (`../`, encoded slashes, symlinks out of the folder) has nothing to reach.
struct ImageCatalog: Sendable {
    private let files: [String: ImageFile]

    init(files: [ImageFile]) {
        self.files = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var names: [String] { files.keys.sorted() }

    func image(named name: String) -> ImageFile? { files[name] }

    /// Whether `name` could be an image's name at all: one path component of ordinary
    /// characters, not starting with a dot.
    static func isPlausibleName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 255, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
            default: return false
            }
        }
    }

    static func contentType(forFileName name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "avif": return "image/avif"
        default: return "application/octet-stream"
        }
    }

    /// Reads every regular file in `<fixtures>/images/`. A missing folder gives an empty catalog.
    static func load(fixturesDirectory: URL) throws -> ImageCatalog {
        let directory = fixturesDirectory.appendingPathComponent("images", isDirectory: true)
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: directory.path) else { return ImageCatalog(files: []) }
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        let entries: [URL]
        do {
            entries = try fileManager.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        } catch {
            throw FixtureServerError.unreadableData(directory, reason: "\(error)")
        }
        // The catalog is cached under the names, dates and sizes of the files it holds.
        let identity = entries.sorted { $0.path < $1.path }.map(LoadCache.identity(of:)).joined(separator: "\n")
        return try LoadCache.value(for: identity) { try loadFiles(entries, keys: keys) }
    }

    private static func loadFiles(_ entries: [URL], keys: [URLResourceKey]) throws -> ImageCatalog {
        var files: [ImageFile] = []
        for entry in entries {
            let name = entry.lastPathComponent
            guard isPlausibleName(name) else { continue }
            do {
                let values = try entry.resourceValues(forKeys: Set(keys))
                guard values.isRegularFile == true else { continue }
                let data = try Data(contentsOf: entry)
                files.append(
                    ImageFile(
                        name: name, bytes: ByteBuffer(bytes: data),
                        contentType: contentType(forFileName: name),
                        etag: EntityTag(strongHashOf: data),
                        lastModified: values.contentModificationDate ?? Date(timeIntervalSince1970: 0)))
            } catch {
                throw FixtureServerError.unreadableData(entry, reason: "\(error)")
            }
        }
        return ImageCatalog(files: files)
    }
}
