import Foundation
import Synchronization

/// The open folders of one cache directory: the directory itself, its `.tmp` and its
/// fan-out folders, each a ``DirectoryHandle`` kept for the cache's lifetime, so a lookup
/// is one `openat` of one name and no link below the parent is ever followed.
///
/// The parent of the cache directory (the cache root, for ``FeedStorage``'s layers) is
/// the user's to name and is opened by path, following links; the cache directory, `.tmp`
/// and fan-out folders are opened by name with `O_NOFOLLOW`, and a link there is refused.
///
/// **Moved or removed underneath.** Every use checks (one `fstatat` of one name) that the
/// directory is still the one at its path; when it was removed or replaced, the handles
/// are opened again from the path (or the use fails as for a missing folder). A fan-out
/// folder removed since it was opened (no link count left) is opened again too, and so is
/// `.tmp` when it is no longer the folder at its name (removed, moved away, replaced).
final class CacheFolders: Sendable {
    /// The cache directory's path, for messages.
    let path: String
    /// The folder holding it, opened by path.
    private let parentPath: String
    /// The cache directory's name in its parent.
    private let name: String
    private let opened = Mutex<Opened?>(nil)

    private struct Opened {
        var parent: DirectoryHandle
        var directory: DirectoryHandle
        var identity: FileIdentity
        var temporary: DirectoryHandle?
        var fanOut: [String: DirectoryHandle] = [:]
    }

    init(path: String) {
        self.path = path
        let parent = (path as NSString).deletingLastPathComponent
        parentPath = parent.isEmpty ? "/" : parent
        name = (path as NSString).lastPathComponent
    }

    /// The cache directory, opened again when it is no longer the one at its path; with
    /// `creating`, created (with the parent's missing folders) when missing.
    func directory(creating: Bool = false) throws(SystemCallError) -> DirectoryHandle {
        try opened.withLock { (opened: inout Opened?) throws(SystemCallError) -> DirectoryHandle in
            try current(&opened, creating: creating).directory
        }
    }

    /// `.tmp`, opened by name in the cache directory.
    func temporary(creating: Bool = false) throws(SystemCallError) -> DirectoryHandle {
        try opened.withLock { (opened: inout Opened?) throws(SystemCallError) -> DirectoryHandle in
            var state = try current(&opened, creating: creating)
            if let temporary = state.temporary, Self.isStill(temporary, named: CacheLayout.temporaryFolderName, in: state.directory) {
                return temporary
            }
            let temporary = try state.directory.folder(CacheLayout.temporaryFolderName, creating: creating)
            state.temporary = temporary
            opened = state
            return temporary
        }
    }

    /// The fan-out folder `folder` (`3f`), opened by name in the cache directory.
    func fanOut(_ folder: String, creating: Bool = false) throws(SystemCallError) -> DirectoryHandle {
        try opened.withLock { (opened: inout Opened?) throws(SystemCallError) -> DirectoryHandle in
            var state = try current(&opened, creating: creating)
            if let handle = state.fanOut[folder], !handle.isRemoved { return handle }
            let handle = try state.directory.folder(folder, creating: creating)
            state.fanOut[folder] = handle
            opened = state
            return handle
        }
    }

    /// Whether `handle` is still the folder `name` in `directory` — not removed, moved
    /// away or replaced (by a link, say) since it was opened.
    private static func isStill(_ handle: DirectoryHandle, named name: String, in directory: DirectoryHandle) -> Bool {
        guard let atName = directory.status(name), let own = handle.ownStatus() else { return false }
        return FileIdentity(atName) == FileIdentity(own)
    }

    /// The open folders, checked against the path and opened again when stale.
    private func current(_ opened: inout Opened?, creating: Bool) throws(SystemCallError) -> Opened {
        if let state = opened, let status = state.parent.status(name), FileIdentity(status) == state.identity {
            return state
        }
        opened = nil
        let parent = try DirectoryHandle.openNamed(parentPath, creating: creating)
        let directory = try parent.folder(name, creating: creating)
        guard let status = directory.ownStatus() else {
            throw SystemCallError(operation: "fstat", path: path, errno: errno)
        }
        let state = Opened(parent: parent, directory: directory, identity: FileIdentity(status))
        opened = state
        return state
    }
}
