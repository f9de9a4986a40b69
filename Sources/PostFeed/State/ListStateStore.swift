import Foundation
import PostFeedCache

/// Saves and restores each list mode's ``ListState`` as JSON in `<cacheRoot>/State/`:
/// `infinite-scroll-state.json` and `pagination-state.json`.
///
/// Thread-safe, and safe for several processes sharing one cache root: every save writes
/// a temporary file in the same folder, syncs it and renames it into place, so a reader
/// sees the old state or the new, never a torn file (the last writer wins). Saves,
/// resets and discards also take an advisory lock on `State/.state.lock`.
///
/// A file that cannot be used — unreadable, not JSON, truncated, from a newer schema, for
/// another backend or the other mode — is never restored and never deleted: it is renamed
/// to `<name>.corrupt-<time>` beside the original and ``load(mode:backendIdentity:setAside:)`` says
/// why in one line.
///
/// ```swift
/// let store = ListStateStore(cacheRoot: cacheRoot)
/// switch store.load(mode: .paged, backendIdentity: backend.identity) {
/// case .restored(let state): print("back to page", state.currentPage ?? 1)
/// case .discarded(let reason, let movedTo): print(reason.message, movedTo?.path ?? "left in place")
/// case .none: print("first run: page 1")
/// }
/// ```
///
/// ``FeedClient`` builds the states it saves from its feeds
/// (``FeedClient/saveInfinite(anchorIndex:shownPostIDs:)``, ``FeedClient/savePaged(anchorIndexInPage:)``)
/// and hands them to ``save(_:basedOn:makingRoom:)``.
///
/// **Links.** The cache root is opened by path (it is the user's, and may be a link they
/// chose); `State/`, the state files, `.state.lock`, temporaries and `*.corrupt-*` names
/// are reached by name relative to the State folder, never following a symbolic link. A
/// link at any of them is refused in one line naming it ("… is a symbolic link;
/// refused"): saves and resets throw, loads start fresh and leave it in place.
///
/// When a save finds the disk full, a ``MakeRoom`` closure handed to it (``FeedClient``
/// trims its image and page caches) may free space, and the write is tried once more.
///
/// File I/O is synchronous and small (one file of a few kilobytes).
public struct ListStateStore: Sendable {
    /// Files larger than this are not list state, and are never written: a longer place is
    /// trimmed first, or not saved (see ``save(_:basedOn:makingRoom:)``). Loaded ids are
    /// kept as runs of consecutive ids, so a million of them take a few bytes; scattered
    /// ids take about 12 bytes each.
    public static let maximumFileSize = 16 * 1024 * 1024

    /// Frees disk space for a save that found the disk full (`ENOSPC`, `EDQUOT`): handed
    /// the bytes the save needs, it frees what it can — cached data, never anything the
    /// user made — and returns the bytes it freed. It runs at most once per save, perhaps
    /// under the state lock: it must not save state itself.
    public typealias MakeRoom = (_ bytesNeeded: Int) -> Int

    /// Asked of a ``MakeRoom`` beyond the file's own bytes: the temporary file's and the
    /// folder's blocks, and a little for whatever else writes to the disk meanwhile.
    static let roomHeadroom = 64 << 10

    /// `<cacheRoot>/State`.
    public let directory: URL
    /// The cache root, opened by path for every operation.
    let cacheRoot: URL
    /// Folders under `State/` holding this store's files: none for the default reader,
    /// `readers/<name>` for a named one (``init(cacheRoot:reader:now:)``).
    let subfolders: [String]
    let now: @Sendable () -> Date
    /// States restored from files that may not have changed since (see ``StateLoadMemo``).
    private let memo = StateLoadMemo()

    /// A store in `<cacheRoot>/State/`; the folder is created by the first save.
    /// - Parameters:
    ///   - cacheRoot: the cache root (``CacheLocation/root``) whose `State/` folder holds the files.
    ///   - now: the clock that stamps files moved aside (inject one in tests).
    public init(cacheRoot: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(cacheRoot: cacheRoot, reader: .default, now: now)
    }

    /// The store of one reader's place: `<cacheRoot>/State/` for ``ReaderID/default`` (the
    /// CLI's files), `<cacheRoot>/State/readers/<name>/` for a named reader. A ``ReaderID``
    /// is a checked name (no separator, no leading dot, bounded), so its folder is always
    /// inside `State/readers/`.
    public init(cacheRoot: URL, reader: ReaderID, now: @escaping @Sendable () -> Date = { Date() }) {
        let subfolders = reader.isDefault ? [] : [ReaderID.folderName, reader.rawValue]
        var directory = cacheRoot.appendingPathComponent(StateFileSystem.folderName, isDirectory: true)
        for name in subfolders { directory.appendPathComponent(name, isDirectory: true) }
        self.directory = directory
        self.subfolders = subfolders
        self.cacheRoot = cacheRoot
        self.now = now
    }

    /// The file that holds `mode`'s state.
    public func fileURL(for mode: ListMode) -> URL {
        directory.appendingPathComponent(mode.stateFileName, isDirectory: false)
    }

    // MARK: Saving

    /// Writes `state` to its mode's file, atomically, as it is: the last writer wins.
    /// ``FeedClient`` saves with ``save(_:basedOn:makingRoom:)``, which keeps another process's progress.
    ///
    /// - Parameters:
    ///   - state: the state to write, to the file of its ``ListState/mode``.
    ///   - makeRoom: called when the disk is full, before the one retry.
    ///
    /// Throws ``ListStateError`` `.invalidState` when the state would not be restored
    /// (nothing is written), `.notWritable` when the State folder cannot be created or
    /// written, `.writeFailed` when writing, syncing or renaming fails (also when the disk
    /// is still full after `makeRoom`).
    public func save(_ state: ListState, makingRoom makeRoom: MakeRoom? = nil) throws(ListStateError) {
        var notices: [String] = []  // only `save(_:basedOn:makingRoom:)` reports them
        try write(state, makingRoom: makeRoom, notices: &notices) { _ in state }
    }

    /// What ``save(_:basedOn:makingRoom:)`` wrote.
    public struct SaveOutcome: Sendable, Equatable {
        /// The state written: `state`, or `state` merged with the one another process saved
        /// since `basedOn`.
        public var state: ListState
        /// The generation written; pass it as `basedOn` to the next save.
        public var generation: Int
        /// One line each when another process's saved place was replaced, not merged, or
        /// the disk was full and room was made.
        public var notices: [String]
    }

    /// Saves `state` by read-modify-write under the state lock, so two processes never
    /// erase each other's progress.
    ///
    /// `basedOn` is the ``ListState/generation`` of the file this run loaded (0 when there
    /// was none). When the file now holds a newer generation, another process saved in
    /// between, and the two are merged (`ListState.merged(over:)`): when one list of
    /// loaded posts extends the other the longer is kept and `state`'s anchor wins; when
    /// they cannot be merged, `state` replaces the other and ``SaveOutcome/notices`` says
    /// so in one line. Posts seen by either are kept as seen. The file written has
    /// generation `max(file's, basedOn) + 1`.
    ///
    /// When the disk is full, `makeRoom` is asked to free space and the write is tried
    /// once more (a notice says so); the file on disk is untouched until a write succeeds.
    ///
    /// Throws as ``save(_:makingRoom:)``.
    @discardableResult
    public func save(_ state: ListState, basedOn generation: Int, makingRoom makeRoom: MakeRoom? = nil) throws(ListStateError) -> SaveOutcome {
        let url = fileURL(for: state.mode)
        var notices: [String] = []
        var diskNotices: [String] = []
        let written = try write(state, makingRoom: makeRoom, notices: &diskNotices) { current in
            let outcome = ReaderPlaceRecord.merge(state, over: current, basedOn: generation, in: Self.display(url))
            notices = outcome.notices
            return outcome.state
        }
        return SaveOutcome(state: written, generation: written.generation, notices: notices + diskNotices)
    }

    /// Under the state lock: sets an unusable file aside, hands `update` the usable state
    /// the file holds for `state`'s mode and backend (or `nil`), and writes what it returns
    /// (asking `makeRoom` for space once, when the disk is full).
    @discardableResult
    private func write(
        _ state: ListState, makingRoom makeRoom: MakeRoom?, notices: inout [String], _ update: (ListState?) -> ListState
    ) throws(ListStateError) -> ListState {
        let mode = state.mode
        let url = fileURL(for: mode)
        _ = try Self.checked(state, url: url)
        var room = RoomMade(makeRoom)
        var opened: DirectoryHandle?
        do throws(SystemCallFailure) {
            try room.retryingOnFullDisk(needing: Self.roomHeadroom) { () throws(SystemCallFailure) in
                opened = try StateFileSystem.openFolder(root: cacheRoot, creating: true, subfolders: subfolders)
            }
        } catch {
            if error.isSymbolicLink { throw Self.linkError(error, saving: url) }
            if error.isOutOfSpace { throw Self.saveError(error, url: url, directory: directory, freed: room.freed) }
            throw ListStateError(
                .notWritable, url: directory, systemError: error.errno,
                message: "cannot save list state: cannot create the folder \(Self.display(URL(fileURLWithPath: error.path))) (\(error.text)); "
                    + error.folderRemedy, recovery: .chooseAnotherCacheRoot)
        }
        guard let folder = opened else {
            throw ListStateError(.notWritable, url: directory, message: "cannot save list state: cannot open \(Self.display(directory))")
        }
        let name = url.lastPathComponent
        return try StateFileSystem.withExclusiveLock(
            in: folder, refusal: { Self.linkError($0, saving: url) }
        ) { () throws(ListStateError) -> ListState in
            // A file this run may not use (another backend, a newer version, unreadable) is
            // kept aside, never overwritten: `load(…, setAside: .onNextSave)` left it in place.
            // A link there is refused, not set aside: it stays, and nothing is saved.
            let current: ListState?
            switch unusability(of: name, in: folder, mode: mode, backendIdentity: state.backendIdentity) {
            case .success(let usable)?: current = usable
            case .failure(let reason)?:
                if let link = reason.link { throw Self.linkError(link, saving: url) }
                current = nil
                _ = try? StateFileSystem.moveAside(name, in: folder, at: now())
            case nil: current = nil
            }
            let (toWrite, data) = try Self.encodedToFit(Self.checked(update(current), url: url), url: url, notices: &notices)
            do throws(SystemCallFailure) {
                try room.retryingOnFullDisk(needing: data.count + Self.roomHeadroom) { () throws(SystemCallFailure) in
                    try StateFileSystem.writeAtomically(data, to: name, in: folder)
                }
            } catch {
                if error.isSymbolicLink { throw Self.linkError(error, saving: url) }
                throw Self.saveError(error, url: url, directory: directory, freed: room.freed)
            }
            if let freed = room.freed {
                notices.append(
                    "the disk holding \(Self.display(directory)) was full: \(freed) bytes of cached data were freed "
                        + "to save \(Self.display(url)); free some disk space")
            }
            StateFileSystem.removeOrphanedTemporaries(of: name, in: folder)
            // The next load of this file (the next save's look at the seen ids, or this run's
            // following save) finds these bytes and skips decoding them.
            memo.remember(toWrite.asStored, for: mode, bytes: data)
            return toWrite
        }
    }

    /// `state` and its bytes, trimmed when needed so that the reader takes the file back
    /// (at most ``maximumFileSize`` bytes, at most ``ListState/maximumLoadedPostCount`` ids;
    /// see `ListState+Fitting.swift`), each trim said in `notices`. Throws `.invalidState`
    /// when it cannot be encoded, or cannot be made small enough: nothing is written then.
    static func encodedToFit(
        _ state: ListState, url: URL, maximumBytes: Int = maximumFileSize, notices: inout [String]
    ) throws(ListStateError) -> (state: ListState, data: Data) {
        var candidate = state
        var trims: [String] = []
        var steps = state.trimmingSteps[...]
        while true {
            var size: Int?
            if candidate.hasReadableIDCount {
                let data: Data
                do {
                    data = try candidate.jsonData()
                } catch {
                    throw ListStateError(
                        .invalidState, url: url,
                        message: "could not encode \(state.mode) list state for \(display(url)) (\(error)); nothing was written")
                }
                if data.count <= maximumBytes {
                    notices += trims.map { "the place is too large for \(display(url)) (at most \(maximumBytes) bytes): \($0)" }
                    return (candidate, data)
                }
                size = data.count
            }
            // The next step that applies and leaves a state that may be saved.
            var next: ListState.Trim?
            while next == nil, let step = steps.popFirst() {
                if let trim = step(candidate), trim.state.problem == nil { next = trim }
            }
            guard let next else {
                let what = size.map { "would be \($0) bytes, more than the \(maximumBytes) a state file may hold" }
                    ?? "holds \(candidate.loadedPostIDs.count) loaded posts, more than the \(ListState.maximumLoadedPostCount) a state file may hold"
                throw ListStateError(
                    .invalidState, url: url,
                    message: "not saving \(state.mode) list state to \(display(url)): it \(what), and the next run could not "
                        + "read it back; nothing was written, so the previous place stays",
                    recovery: .resetState)
            }
            candidate = next.state
            trims.append(next.notice)
        }
    }

    /// `state` when it may be saved, else `.invalidState` naming the problem.
    private static func checked(_ state: ListState, url: URL) throws(ListStateError) -> ListState {
        if let problem = state.problem ?? versionProblem(state) {
            throw ListStateError(
                .invalidState, url: url,
                message: "not saving \(state.mode) list state to \(display(url)): \(problem); nothing was written")
        }
        return state
    }

    // MARK: Loading

    /// The saved state of `mode`, if there is one this run may use.
    ///
    /// Never throws and never deletes: a file that cannot be used is moved aside and
    /// reported as ``LoadResult/discarded(_:movedTo:)``.
    /// - Parameter mode: the list mode whose file to read.
    /// - Parameter backendIdentity: `BackendDescription.identity` of this run's backend.
    /// - Parameter setAside: when an unusable file is moved aside: at once (the default), or
    ///   only when this run saves its own state, so a run that fails before saving leaves
    ///   the State folder exactly as it found it.
    public func load(mode: ListMode, backendIdentity: String, setAside: SetAside = .now) -> LoadResult {
        let url = fileURL(for: mode)
        let folder: DirectoryHandle
        do throws(SystemCallFailure) {
            folder = try StateFileSystem.openFolder(root: cacheRoot, creating: false, subfolders: subfolders)
        } catch {
            // No State folder (or no root, or a file in its place): nothing was saved.
            return error.isSymbolicLink ? Self.refused(error, file: url) : .none
        }
        let name = url.lastPathComponent
        return StateFileSystem.withExclusiveLock(in: folder) {
            guard let problem = unusability(of: name, in: folder, mode: mode, backendIdentity: backendIdentity) else {
                return .none
            }
            switch problem {
            case .success(let state):
                return .restored(state)
            case .failure(let reason):
                if let link = reason.link { return Self.refused(link, file: url) }
                switch setAside {
                case .now:
                    return discard(name, in: folder, url: url, reason.kind, reason.problem)
                case .onNextSave:
                    let message = "\(Self.display(url)) \(reason.problem); starting fresh (the file is kept aside as "
                        + "\(url.lastPathComponent).corrupt-<time> when this run saves its place)"
                    return .discarded(DiscardReason(kind: reason.kind, file: url, message: message), movedTo: nil)
                }
            }
        }
    }

    /// When ``load(mode:backendIdentity:setAside:)`` moves an unusable file aside.
    public enum SetAside: Sendable {
        /// At once, as the file is found unusable.
        case now
        /// Only when this run saves its own state for the mode.
        case onNextSave
    }

    /// The state in `name` if this run may use it, else why not; `nil` when there is no file.
    private func unusability(of name: String, in folder: DirectoryHandle, mode: ListMode, backendIdentity: String)
        -> Result<ListState, Unusable>?
    {
        switch StateFileSystem.read(name, in: folder, maximumBytes: Self.maximumFileSize) {
        case .missing:
            return nil
        case .failed(let failure):
            return .failure(Unusable(
                kind: .unreadable, problem: "could not be read (\(failure.text))", link: failure.isSymbolicLink ? failure : nil))
        case .tooLarge(let size):
            return .failure(Unusable(kind: .corrupt, problem: "is \(size) bytes, too large to be list state"))
        case .data(let data):
            if let state = memo.state(for: mode, bytes: data), state.backendIdentity == backendIdentity {
                return .success(state)
            }
            switch StateFileCheck.check(data, mode: mode, backendIdentity: backendIdentity) {
            case .success(let state):
                memo.remember(state.asStored, for: mode, bytes: data)
                return .success(state)
            case .failure(let problem): return .failure(Unusable(kind: problem.kind, problem: problem.description))
            }
        }
    }

    private struct Unusable: Error {
        let kind: DiscardReason.Kind
        let problem: String
        /// The refusal, when the file is a symbolic link: reported, never set aside.
        var link: SystemCallFailure?
    }

    // MARK: Resetting

    /// Removes `mode`'s state file (`postfeed state reset`); files moved aside stay.
    /// - Returns: `false` when there was no state to remove.
    @discardableResult
    public func reset(mode: ListMode) throws(ListStateError) -> Bool {
        let url = fileURL(for: mode)
        let folder: DirectoryHandle
        do throws(SystemCallFailure) {
            folder = try StateFileSystem.openFolder(root: cacheRoot, creating: false, subfolders: subfolders)
        } catch {
            if error.isSymbolicLink { throw Self.linkError(error, removing: url) }
            return false  // no State folder: nothing saved
        }
        let name = url.lastPathComponent
        return try StateFileSystem.withExclusiveLock(
            in: folder, refusal: { Self.linkError($0, removing: url) }
        ) { () throws(ListStateError) -> Bool in
            let removed: Bool
            do throws(SystemCallFailure) {
                removed = try StateFileSystem.remove(name, in: folder)
            } catch {
                if error.isSymbolicLink { throw Self.linkError(error, removing: url) }
                throw ListStateError(
                    .removeFailed, url: url, systemError: error.errno,
                    message: "cannot remove \(Self.display(url)) (\(error.text)); check the permissions of \(Self.display(directory))")
            }
            StateFileSystem.removeOrphanedTemporaries(of: name, in: folder)
            return removed
        }
    }

    /// Removes both modes' state files. Nothing else in the cache is touched.
    /// - Returns: `false` when there was no state to remove.
    @discardableResult
    public func resetAll() throws(ListStateError) -> Bool {
        var removedAny = false
        var firstError: ListStateError?
        for mode in ListMode.allCases {
            do {
                removedAny = try reset(mode: mode) || removedAny
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return removedAny
    }

    // MARK: - Helpers

    private static func versionProblem(_ state: ListState) -> String? {
        state.version == ListState.currentVersion
            ? nil : "version \(state.version) is not the schema version this PostFeed writes (\(ListState.currentVersion))"
    }

    /// Moves the file aside and says so in one line.
    private func discard(
        _ fileName: String, in folder: DirectoryHandle, url: URL, _ kind: DiscardReason.Kind, _ problem: String
    ) -> LoadResult {
        let name = Self.display(url)
        do {
            let aside = try StateFileSystem.moveAside(fileName, in: folder, at: now())
            let message = "\(name) \(problem); moved aside to \(Self.display(aside)); starting fresh"
            return .discarded(DiscardReason(kind: kind, file: url, message: message), movedTo: aside)
        } catch {
            let message = "\(name) \(problem); could not move it aside (\(error.text)), so it stays and is ignored; starting fresh"
            return .discarded(DiscardReason(kind: kind, file: url, message: message), movedTo: nil)
        }
    }

    /// A link where the State folder, a state file or the lock belongs: left in place, one
    /// line naming it, a fresh start.
    private static func refused(_ link: SystemCallFailure, file: URL) -> LoadResult {
        let message = "\(link.refusal); starting fresh (PostFeed never follows a link in its State folder; remove the link)"
        return .discarded(DiscardReason(kind: .unreadable, file: file, message: message), movedTo: nil)
    }

    /// A save refused because of a link: one line naming the link.
    static func linkError(_ link: SystemCallFailure, saving url: URL) -> ListStateError {
        ListStateError(
            .notWritable, url: URL(fileURLWithPath: link.path), systemError: ELOOP,
            message: "cannot save \(display(url)): \(link.refusal) (PostFeed never follows a link in its State folder); "
                + "remove the link", recovery: .chooseAnotherCacheRoot)
    }

    /// A reset refused because of a link: one line naming the link.
    static func linkError(_ link: SystemCallFailure, removing url: URL) -> ListStateError {
        ListStateError(
            .removeFailed, url: URL(fileURLWithPath: link.path), systemError: ELOOP,
            message: "cannot remove \(display(url)): \(link.refusal) (PostFeed never follows a link in its State folder); "
                + "remove the link yourself")
    }

    /// - Parameter freed: the bytes a ``MakeRoom`` freed before the write was tried again;
    ///   `nil` when none was asked.
    private static func saveError(_ failure: SystemCallFailure, url: URL, directory: URL, freed: Int? = nil) -> ListStateError {
        if let freed, failure.isOutOfSpace {
            let tried = freed > 0
                ? "even after \(freed) bytes of cached data were freed for it" : "and there was no cached data left to free"
            return ListStateError(
                .writeFailed, url: url, systemError: failure.errno,
                message: "cannot save \(display(url)): \(failure.step) failed (\(failure.text)) \(tried); "
                    + "the previous state is unchanged; free disk space on the disk holding \(display(directory)) and try again")
        }
        if failure.isPermissionProblem {
            return ListStateError(
                .notWritable, url: directory, systemError: failure.errno,
                message: "cannot save \(display(url)): \(display(directory)) is not writable (\(failure.text)); "
                    + failure.folderRemedy, recovery: .chooseAnotherCacheRoot)
        }
        return ListStateError(
            .writeFailed, url: url, systemError: failure.errno,
            message: "cannot save \(display(url)): \(failure.step) failed (\(failure.text)); "
                + "the previous state is unchanged; free disk space or check the disk and try again")
    }

    /// The path as the user would type it: relative to the working directory when inside it.
    static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let workingDirectory = FileManager.default.currentDirectoryPath
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return path.hasPrefix(prefix) && path.count > prefix.count ? String(path.dropFirst(prefix.count)) : path
    }
}
