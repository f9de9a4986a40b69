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

    var entryBytes: Int { entries.reduce(0) { $0 + $1.size } }

    init() {}

    init(_ layout: CacheLayout) {
        for folder in FileSystem.contents(ofDirectory: layout.directory) where CacheLayout.isFolderName(folder) {
            let folderPath = layout.directory + "/" + folder
            for name in FileSystem.contents(ofDirectory: folderPath) {
                guard let file = Self.regularFile(name: name, in: folderPath) else { continue }
                if CacheLayout.isEntryName(name) {
                    if name.hasPrefix(folder) { entries.append(file) } else { misplacedEntries.append(file) }
                } else if CacheLayout.isTemporaryName(name) {
                    temporaryFiles.append(file)
                }
            }
        }
        for name in FileSystem.contents(ofDirectory: layout.temporaryDirectory) {
            if let file = Self.regularFile(name: name, in: layout.temporaryDirectory) {
                temporaryFiles.append(file)
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
