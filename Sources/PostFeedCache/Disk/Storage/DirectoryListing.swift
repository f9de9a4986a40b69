import Foundation

/// One file found by a directory listing, with what `fstatat` said about it.
struct ListedFile {
    var name: String
    /// The folder it is in (a fan-out folder or `.tmp`), through which it is opened and
    /// unlinked by name.
    var folder: DirectoryHandle
    var size: Int
    var modified: Date
    var identity: FileIdentity

    /// Its full path, for reports.
    var path: String { folder.child(name) }

    /// Opens it for reading, never through a link.
    func open() throws(SystemCallError) -> SystemFile {
        try folder.open(name, flags: O_RDONLY)
    }

    /// Unlinks it if the name still holds the very file listed; `true` when it did.
    func removeIfUnchanged() -> Bool {
        guard let status = folder.status(name), FileIdentity(status) == identity else { return false }
        return unlinkat(folder.descriptor, name, 0) == 0
    }
}

/// Everything a cache directory holds, found by walking the fan-out folders. O(entries):
/// used by trims, statistics, verification and pruning — never by a lookup.
///
/// Every name is examined with `fstatat(AT_SYMLINK_NOFOLLOW)` relative to its folder's
/// handle: a symbolic link is never listed as an entry or a temporary file, never
/// descended into, and is reported as a thing in the way ("is a symbolic link; refused").
struct DirectoryListing {
    /// Entry files in their right folder.
    var entries: [ListedFile] = []
    /// Entry-named files in the wrong fan-out folder: no lookup can reach them.
    var misplacedEntries: [ListedFile] = []
    /// Writes in progress, or left behind by crashed writers.
    var temporaryFiles: [ListedFile] = []
    /// Things in the way: a directory where an entry or temporary file belongs, a file
    /// where a fan-out folder or the temporary folder belongs, a symbolic link anywhere
    /// a file or folder belongs. No lookup or write can use those paths, so every run
    /// would miss and warn until they are removed.
    var obstructions: [Obstruction] = []

    /// One thing in the way, and what it is in the way of.
    struct Obstruction {
        var name: String
        /// The folder it is in.
        var folder: DirectoryHandle
        var reason: String

        var path: String { folder.child(name) }

        /// Removes it — a folder with everything in it, a link as a link (never what it
        /// points to); `true` when it is gone.
        func remove() -> Bool {
            folder.removeTree(name)
        }
    }

    /// What a refused link is called in reports.
    static let linkReason = "is a symbolic link; refused"

    var entryBytes: Int { entries.reduce(0) { $0 + $1.size } }

    init() {}

    init(_ folders: CacheFolders) {
        guard let directory = try? folders.directory() else { return }
        for folder in directory.names() where CacheLayout.isFolderName(folder) {
            guard let status = directory.status(folder) else { continue }
            if FileSystem.isSymbolicLink(status) {
                obstructions.append(Obstruction(name: folder, folder: directory, reason: Self.linkReason))
                continue
            }
            guard FileSystem.isDirectory(status) else {
                obstructions.append(Obstruction(name: folder, folder: directory, reason: "a file where the fan-out folder \(folder) belongs"))
                continue
            }
            guard let handle = try? folders.fanOut(folder) else { continue }
            for name in handle.names() {
                let isOurs = CacheLayout.isEntryName(name) || CacheLayout.isTemporaryName(name)
                guard let file = Self.regularFile(name: name, in: handle) else {
                    if isOurs {
                        let isLink = handle.status(name).map(FileSystem.isSymbolicLink) ?? false
                        obstructions.append(Obstruction(
                            name: name, folder: handle,
                            reason: isLink ? Self.linkReason : "not a regular file (a directory?) where an entry file belongs"))
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
        let temporaryName = CacheLayout.temporaryFolderName
        if let status = directory.status(temporaryName), !FileSystem.isDirectory(status) {
            let reason = FileSystem.isSymbolicLink(status) ? Self.linkReason : "a file where the temporary folder belongs"
            obstructions.append(Obstruction(name: temporaryName, folder: directory, reason: reason))
            return
        }
        guard let temporary = try? folders.temporary() else { return }
        for name in temporary.names() {
            if let file = Self.regularFile(name: name, in: temporary) {
                temporaryFiles.append(file)
            } else {
                let isLink = temporary.status(name).map(FileSystem.isSymbolicLink) ?? false
                obstructions.append(Obstruction(
                    name: name, folder: temporary,
                    reason: isLink ? Self.linkReason : "not a regular file where a temporary file belongs"))
            }
        }
    }

    private static func regularFile(name: String, in folder: DirectoryHandle) -> ListedFile? {
        guard let status = folder.status(name), FileSystem.isRegularFile(status) else { return nil }
        return ListedFile(
            name: name, folder: folder, size: Int(status.st_size),
            modified: FileSystem.modificationDate(status), identity: FileIdentity(status)
        )
    }
}
