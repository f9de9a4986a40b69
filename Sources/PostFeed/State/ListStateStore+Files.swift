import Foundation
import PostFeedCache

extension ListStateStore {
    // MARK: Other files of the State folder

    /// The bytes of another file the State folder keeps (the CLI's popularity order,
    /// `popularity-order-state.json`), reached as the state files are: by name in `State/`,
    /// never through a link. `nil` when the file or the folder does not exist.
    ///
    /// - Throws: ``ListStateError`` `.unreadable` naming the file: a symbolic link (refused),
    ///   larger than `maximumBytes`, or unreadable.
    public func contents(ofFileNamed name: String, maximumBytes: Int) throws(ListStateError) -> Data? {
        let url = directory.appendingPathComponent(name)
        let folder: DirectoryHandle
        do throws(SystemCallFailure) {
            folder = try StateFileSystem.openFolder(root: cacheRoot, creating: false, subfolders: subfolders)
        } catch {
            guard error.isSymbolicLink else { return nil }
            throw Self.unreadable(url, error.refusal, errno: ELOOP)
        }
        switch StateFileSystem.read(name, in: folder, maximumBytes: maximumBytes) {
        case .missing: return nil
        case .data(let data): return data
        case .tooLarge(let size): throw Self.unreadable(url, "\(Self.display(url)) is \(size) bytes, more than \(maximumBytes)")
        case .failed(let failure):
            if failure.isSymbolicLink { throw Self.unreadable(url, failure.refusal, errno: ELOOP) }
            throw Self.unreadable(url, "\(Self.display(url)) could not be read (\(failure.text))", errno: failure.errno)
        }
    }

    /// Replaces the file `name` in the State folder with `data` atomically (creating the
    /// folder), as a state file is written: never through a link.
    ///
    /// - Throws: ``ListStateError`` `.notWritable` or `.writeFailed` naming the file or link.
    public func write(_ data: Data, toFileNamed name: String) throws(ListStateError) {
        let url = directory.appendingPathComponent(name)
        do throws(SystemCallFailure) {
            let folder = try StateFileSystem.openFolder(root: cacheRoot, creating: true, subfolders: subfolders)
            try StateFileSystem.writeAtomically(data, to: name, in: folder)
        } catch {
            throw Self.otherFileSaveError(error, url: url)
        }
    }

    /// Why another file of the State folder (`url`) could not be saved, naming the step.
    static func otherFileSaveError(_ error: SystemCallFailure, url: URL) -> ListStateError {
        if error.isSymbolicLink { return linkError(error, saving: url) }
        return ListStateError(
            error.isPermissionProblem ? .notWritable : .writeFailed, url: url, systemError: error.errno,
            message: "cannot save \(display(url)): \(error.step) \(display(URL(fileURLWithPath: error.path))) failed "
                + "(\(error.text)); check that the folder is writable and the disk has room")
    }

    /// Renames the file `name` in the State folder to `<name>.corrupt-<time>` (`-2`, `-3`, …
    /// when taken), as unusable state files are set aside: a name already taken, by any
    /// process, is never overwritten. Returns where the file went.
    public func setAside(fileNamed name: String) throws(ListStateError) -> URL {
        let url = directory.appendingPathComponent(name)
        do throws(SystemCallFailure) {
            let folder = try StateFileSystem.openFolder(root: cacheRoot, creating: false, subfolders: subfolders)
            if let status = folder.status(name), status.st_mode & S_IFMT == S_IFLNK {
                throw SystemCallFailure(step: "move aside", path: url.path, errno: ELOOP, isSymbolicLink: true)
            }
            return try StateFileSystem.moveAside(name, in: folder, at: now())
        } catch {
            throw ListStateError(
                .removeFailed, url: url, systemError: error.errno,
                message: error.isSymbolicLink
                    ? "cannot set \(Self.display(url)) aside: \(error.refusal)"
                    : "cannot set \(Self.display(url)) aside (\(error.text))")
        }
    }

    /// When `mode`'s state file was last written; `nil` when there is none (or it is not a
    /// regular file: a link is not looked through).
    public func modificationDate(for mode: ListMode) -> Date? {
        guard let folder = try? StateFileSystem.openFolder(root: cacheRoot, creating: false, subfolders: subfolders)
        else { return nil }
        return StateFileSystem.modificationDate(of: mode.stateFileName, in: folder)
    }

    private static func unreadable(_ url: URL, _ why: String, errno: Int32? = nil) -> ListStateError {
        ListStateError(.unreadable, url: url, systemError: errno, message: why)
    }
}
