import Foundation
import Synchronization

/// A ``DataCaching`` cache in a directory: one self-validating file per entry, shared
/// safely by threads and processes.
///
/// ```swift
/// let cache = try DiskCache(directory: root.appending(path: "ImageCache"))
/// let now = Date()
/// try cache.store(bytes, metadata: .init(key: url, etag: etag, storedAt: now), forKey: url)
/// if let entry = cache.entry(forKey: url), !entry.isExpired(at: now) { use(entry.data) }
/// ```
///
/// **Files.** An entry lives at `<directory>/<h[0..<2]>/<h>`, `h` being the SHA-256 hex of
/// its key, as one file: body, metadata JSON, 32-byte footer with lengths and CRC-32C checksums
/// (see the format in `EntryFooter.swift`). A read checks everything and treats any defect
/// — truncation, flipped bits, foreign or future-version files — as a miss, removing the
/// file.
///
/// **Writes** go to a temporary file beside the entry, are `fsync`ed, then renamed over
/// the entry: a process killed at any instant leaves the old entry or the new one, never
/// a torn one; its temporary file is swept once older than
/// ``Configuration/staleTemporaryFileAge``. The directory itself is not `fsync`ed after
/// the rename: after a power cut the newest entries may be missing (a miss), never torn.
///
/// **Size.** A ledger in the lock file tracks the directory's total bytes across
/// processes; the write that takes it past ``Configuration/sizeLimit`` trims least
/// recently used entries down to ``Configuration/lowWaterRatio`` of the limit. Last use is
/// the file's mtime, set on write and refreshed by reads (at most once per
/// ``Configuration/accessTimeResolution``).
///
/// **Async callers** submit writes through ``performWrite(_:)``: each cache owns a serial
/// ``writeQueue``, so writes, which `fsync`, never block Swift's cooperative thread pool;
/// ``flush()`` waits for those submitted before it.
///
/// **Processes.** Renames, unlinks and trims hold an exclusive `flock` on `.lock`;
/// reads take no lock at all, so sweeps never block readers.
///
/// **Links.** `directory`'s parent is opened by path (following links: a cache root the
/// user named may be a link); `directory` itself, `.tmp`, `.lock`, the fan-out folders,
/// entries and temporary files are reached by name relative to held folder handles, never
/// following a link (``CacheFolders``, ``DirectoryHandle``). A link at `directory`, `.tmp`
/// or `.lock` makes ``init(directory:configuration:)`` throw
/// ``DiskCacheError/Code/symbolicLink``; one at a fan-out folder or an entry is a miss to
/// reads, refused by writes and removed (the link, not what it names) by ``verify()``,
/// ``prune()`` and ``removeAll()``. Nothing outside is read, written or removed.
///
/// **Expiry.** Entries stored without `expiresAt` get `storedAt` + ``Configuration/defaultTTL``.
/// Expired entries are still returned (the caller revalidates or reads offline);
/// ``prune()`` deletes them once past the ``Configuration/expiredEntryGracePeriod``.
///
/// **A disk that refuses writes** (read-only, permissions, full): the first refused
/// write throws a ``DiskCacheError`` (``DiskCacheError/Code/notWritable`` or
/// ``DiskCacheError/Code/diskFull``), ``isWritable`` turns `false` and the
/// ``Configuration/warningHandler`` is called once. Until ``Configuration/writeRetryInterval``
/// has passed, writes return without writing or throwing (counted in
/// ``Statistics/skippedWrites``); then one is tried again, and success turns
/// ``isWritable`` back on. Reads keep working throughout, so the caller carries on with
/// its memory cache.
public final class DiskCache: DataCaching {
    /// The directory this cache owns.
    public let directory: URL
    /// Limits, ages and the clock.
    public let configuration: Configuration
    /// This cache's own serial queue for ``performWrite(_:)``, off the cooperative pool.
    public let writeQueue: CacheWriteQueue

    let layout: CacheLayout
    /// The open folders: every file is reached by name through them.
    let folders: CacheFolders
    let lock: CacheLock
    let state = Mutex(RuntimeState())

    /// This instance's counters and write availability.
    struct RuntimeState {
        var hits = 0
        var misses = 0
        var corruptEntriesRemoved = 0
        var writes = 0
        var skippedWrites = 0
        var failedWrites = 0
        /// The part of the counters above already added to the lifetime counters.
        var persisted = LifetimeCounters()
        /// When the disk last refused a write; `nil` while writable.
        var unwritableSince: Date?

        /// This instance's counters since it opened.
        var counted: LifetimeCounters {
            LifetimeCounters(
                hits: Int64(hits), misses: Int64(misses), writes: Int64(writes), failedWrites: Int64(failedWrites),
                skippedWrites: Int64(skippedWrites), corruptEntriesRemoved: Int64(corruptEntriesRemoved))
        }

        /// This instance's counts not yet added to the lifetime counters.
        var unpersisted: LifetimeCounters { counted - persisted }
    }

    /// Opens (creating if needed) the cache in `directory`.
    ///
    /// - Throws: ``DiskCacheError/Code/directoryUnavailable`` when `directory` is not a
    ///   file URL, or does not exist and cannot be created (e.g. a path under a regular
    ///   file); ``DiskCacheError/Code/symbolicLink`` when `directory`, its `.tmp` or its
    ///   `.lock` is a symbolic link. A directory that exists but refuses writes does not
    ///   throw: the cache opens read-only with ``isWritable`` `false` and one warning.
    public init(directory: URL, configuration: Configuration = .init()) throws {
        guard directory.isFileURL else {
            throw DiskCacheError(.directoryUnavailable, path: directory.absoluteString,
                                 reason: "not a file URL")
        }
        self.directory = directory
        self.configuration = configuration
        writeQueue = CacheWriteQueue(label: "postfeed.disk-writes \(directory.lastPathComponent)")
        layout = CacheLayout(directory: directory)
        folders = CacheFolders(path: layout.directory)
        lock = CacheLock(folders: folders)
        let opened: DirectoryHandle
        do throws(SystemCallError) {
            opened = try folders.directory(creating: true)
        } catch where error.isSymbolicLink {
            throw DiskCacheError(error)
        } catch {
            throw DiskCacheError(.directoryUnavailable, path: error.path, errno: error.errno,
                                 reason: "\(error.operation): \(error.message)")
        }
        var refusal: DiskCacheError?
        do throws(SystemCallError) {
            _ = try folders.temporary(creating: true)
        } catch {
            if error.isSymbolicLink { refusal = DiskCacheError(error) }
            let failure = DiskCacheError(error)
            if failure.disablesWrites { _ = markUnwritable(failure, countsAsFailedWrite: false) }
        }
        do throws(SystemCallError) {
            _ = try opened.open(CacheLayout.lockName, flags: O_RDWR | O_CREAT)
        } catch {
            if error.isSymbolicLink { refusal = refusal ?? DiskCacheError(error) }
            let failure = DiskCacheError(error)
            if failure.disablesWrites, isWritable { _ = markUnwritable(failure, countsAsFailedWrite: false) }
        }
        if let refusal { throw refusal }
        sweepStaleDownloads()
    }

    /// Removes downloads abandoned in ``temporaryDirectory`` by crashed processes: one
    /// directory listing, so cheap enough for every launch. (Temporary files beside entries
    /// are swept by trims and ``prune()``, which list the fan-out folders anyway.) Names
    /// are examined and unlinked relative to `.tmp`'s handle: a link is never followed,
    /// nor removed here.
    private func sweepStaleDownloads() {
        guard let temporary = try? folders.temporary() else { return }
        let now = configuration.now()
        let staleAge = configuration.staleTemporaryFileAge.timeInterval
        for name in temporary.names() {
            guard let status = temporary.status(name), FileSystem.isRegularFile(status),
                  now.timeIntervalSince(FileSystem.modificationDate(status)) > staleAge else { continue }
            temporary.remove(name)
        }
    }

    /// Where to stream a download before ``storeFile(at:metadata:forKey:)`` adopts it: on
    /// the cache's file system, so adoption is a rename. Files left here by a crash are
    /// swept once stale.
    ///
    /// ```swift
    /// // client: PostFeedHTTP's HTTPClient, which names the file itself
    /// let download = try await client.download(HTTPRequest(url: url), into: cache.temporaryDirectory)
    /// try cache.storeFile(at: download.fileURL, metadata: metadata, forKey: url.absoluteString)
    /// ```
    public var temporaryDirectory: URL {
        URL(fileURLWithPath: layout.temporaryDirectory, isDirectory: true)
    }

    /// ``temporaryDirectory``, held open: download files are created, adopted and removed
    /// by name through it (``DownloadFolder``), so a link put in place of `.tmp` while the
    /// cache is open is refused rather than followed. Created when missing.
    ///
    /// - Throws: ``DiskCacheError`` — ``DiskCacheError/Code/symbolicLink`` when `.tmp` (or
    ///   the cache folder) is a link, ``DiskCacheError/Code/notWritable`` when it cannot be made.
    public func downloadFolder() throws(DiskCacheError) -> DownloadFolder {
        do throws(SystemCallError) {
            return DownloadFolder(handle: try folders.temporary(creating: true))
        } catch {
            throw DiskCacheError(error, key: nil)
        }
    }

    /// Whether writes currently reach the disk; see "A disk that refuses writes" above.
    public var isWritable: Bool {
        state.withLock { $0.unwritableSince == nil }
    }

    // MARK: Reading

    /// Reads and verifies the whole entry file without taking a lock; refreshes its last use.
    /// A file that fails verification is removed (if it is still the file read) and counted.
    public func entry(forKey key: String) -> DiskCacheEntry? {
        let name = CacheLayout.name(forKey: key)
        guard let file = try? openEntry(name), let status = try? file.status() else {
            state.withLock { $0.misses += 1 }
            return nil
        }
        do {
            let (entry, _) = try EntryCodec.read(file, size: Int(status.st_size), expectedName: name)
            refreshLastUse(of: file, status: status)
            state.withLock { $0.hits += 1 }
            return entry
        } catch {
            removeCorruptEntry(named: name, identity: FileIdentity(status))
            state.withLock { $0.misses += 1 }
            return nil
        }
    }

    /// Opens the entry `name` for reading through its fan-out folder, never through a link.
    func openEntry(_ name: String) throws(SystemCallError) -> SystemFile {
        try folders.fanOut(CacheLayout.folderName(forName: name)).open(name, flags: O_RDONLY)
    }

    /// Moves the file's mtime (the trim's "last used") to now, unless it is recent enough.
    /// Failures are ignored: on a read-only disk, recency simply stops updating.
    private func refreshLastUse(of file: SystemFile, status: stat) {
        let now = configuration.now()
        let lastUse = FileSystem.modificationDate(status)
        guard now.timeIntervalSince(lastUse) >= configuration.accessTimeResolution.timeInterval else { return }
        try? file.setModificationTime(now)
    }

    // MARK: Write availability

    /// Whether a write should be attempted now; counts a skipped one.
    func beginWrite() -> Bool {
        let now = configuration.now()
        let retry = configuration.writeRetryInterval.timeInterval
        return state.withLock { state in
            guard let since = state.unwritableSince, now.timeIntervalSince(since) < retry else { return true }
            state.skippedWrites += 1
            return false
        }
    }

    /// Runs a write, keeping ``isWritable`` and the counters in step with its outcome.
    /// A refusal throws only when it newly makes the cache unwritable ("once per
    /// condition"); a retry refused again is swallowed and counted.
    func recordingWriteOutcome(_ write: () throws -> Void) throws {
        do {
            try write()
            state.withLock { state in
                state.writes += 1
                state.unwritableSince = nil
            }
        } catch let error as DiskCacheError where error.disablesWrites {
            if markUnwritable(error) { throw error }
        }
    }

    /// Records a refusal; returns `true` (and warns) when the cache was writable until now.
    func markUnwritable(_ error: DiskCacheError, countsAsFailedWrite: Bool = true) -> Bool {
        let now = configuration.now()
        let isNew = state.withLock { state in
            if countsAsFailedWrite { state.failedWrites += 1 }
            defer { state.unwritableSince = now }
            return state.unwritableSince == nil
        }
        if isNew { configuration.warningHandler(error) }
        return isNew
    }
}
