import Foundation

/// One file found by a directory listing, with what `lstat` said about it.
struct ListedFile {
    var name: String
    var path: String
    var size: Int
    var modified: Date
    var identity: FileIdentity
}

/// Everything a cache directory holds, found by walking the fan-out folders. O(entries):
/// used by trims, statistics, verification and pruning — never by a lookup.
struct DirectoryListing {
    /// Entry files in their right folder.
    var entries: [ListedFile] = []
    /// Entry-named files in the wrong fan-out folder: no lookup can reach them.
    var misplacedEntries: [ListedFile] = []
    /// Writes in progress, or left behind by crashed writers.
    var temporaryFiles: [ListedFile] = []
    /// Things in the way: a directory where an entry or temporary file belongs, a file
    /// where a fan-out folder or the temporary folder belongs. No lookup or write can use
    /// those paths, so every run would miss and warn until they are removed.
    var obstructions: [Obstruction] = []

    /// One thing in the way, and what it is in the way of.
    struct Obstruction {
        var path: String
        var reason: String
    }

    var entryBytes: Int { entries.reduce(0) { $0 + $1.size } }

    init() {}

    init(_ layout: CacheLayout) {
        for folder in FileSystem.contents(ofDirectory: layout.directory) where CacheLayout.isFolderName(folder) {
            let folderPath = layout.directory + "/" + folder
            if let status = FileSystem.status(folderPath), !FileSystem.isDirectory(status) {
                obstructions.append(Obstruction(path: folderPath, reason: "a file where the fan-out folder \(folder) belongs"))
                continue
            }
            for name in FileSystem.contents(ofDirectory: folderPath) {
                guard let file = Self.regularFile(name: name, in: folderPath) else {
                    if CacheLayout.isEntryName(name) || CacheLayout.isTemporaryName(name) {
                        obstructions.append(Obstruction(
                            path: folderPath + "/" + name, reason: "not a regular file (a directory?) where an entry file belongs"))
                    }
                    continue
                }
                if CacheLayout.isEntryName(name) {
                    if name.hasPrefix(folder) { entries.append(file) } else { misplacedEntries.append(file) }
                } else if CacheLayout.isTemporaryName(name) {
                    temporaryFiles.append(file)
                }
            }
        }
        if let status = FileSystem.status(layout.temporaryDirectory), !FileSystem.isDirectory(status) {
            obstructions.append(Obstruction(path: layout.temporaryDirectory, reason: "a file where the temporary folder belongs"))
        }
        for name in FileSystem.contents(ofDirectory: layout.temporaryDirectory) {
            if let file = Self.regularFile(name: name, in: layout.temporaryDirectory) {
                temporaryFiles.append(file)
            } else {
                obstructions.append(Obstruction(
                    path: layout.temporaryDirectory + "/" + name, reason: "not a regular file where a temporary file belongs"))
            }
        }
    }

    private static func regularFile(name: String, in folder: String) -> ListedFile? {
        let path = folder + "/" + name
        guard let status = FileSystem.status(path), FileSystem.isRegularFile(status) else { return nil }
        return ListedFile(
            name: name, path: path, size: Int(status.st_size),
            modified: FileSystem.modificationDate(status), identity: FileIdentity(status)
        )
    }
}

extension DirectoryListing.Obstruction {
    /// Removes it, a folder with everything in it; `true` when it is gone.
    func remove() -> Bool {
        (try? FileManager.default.removeItem(atPath: path)) != nil || FileSystem.status(path) == nil
    }
}
