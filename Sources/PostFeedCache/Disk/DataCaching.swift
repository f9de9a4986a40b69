import Foundation

/// A persistent key → bytes cache with metadata, as used by the image pipeline and the
/// page cache.
///
/// The contract every implementation must keep:
/// - **Thread-safe**: any method may be called from any thread or task at any time.
/// - **Crash-safe**: a process killed at any instant (even `kill -9` mid-write) never
///   leaves a torn entry visible; the entry is either the old one, the new one, or absent.
/// - **Never returns a torn or corrupt entry**: an entry that fails verification is
///   removed, counted and reported as a miss (`nil`).
/// - **Shareable**: several processes may use one directory at once; none loses another's
///   valid entries or reads them half-written.
/// - **Degrades, never crashes**: when the disk refuses writes, reads keep working and
///   writes fail with a ``DiskCacheError`` (see ``DiskCache`` for exactly how).
/// - **Owns its write queue**: the synchronous writes below block until the bytes are on
///   disk. Async code submits them through ``performWrite(_:)``, which runs them on the
///   cache's own serial queue, never on Swift's cooperative thread pool, in the order
///   submitted; ``flush()`` returns once every write submitted before it has finished.
///   ``CacheWriteQueue`` is such a queue.
///
/// ```swift
/// // From async code: one job, off the pool; the caller awaits its end.
/// try await cache.performWrite { try cache.store(bytes, metadata: metadata, forKey: key) }
/// // Before deleting the cache's folder:
/// await cache.flush()
/// ```
public protocol DataCaching: Sendable {
    /// The entry for `key`, or `nil` when there is none or it was corrupt (then it is
    /// removed). Expired entries are returned too: check ``DiskCacheEntry/isExpired(at:)``.
    func entry(forKey key: String) -> DiskCacheEntry?

    /// Stores `data` under `key`, replacing any entry, atomically.
    func store(_ data: Data, metadata: CacheEntryMetadata, forKey key: String) throws

    /// Adopts a body already streamed into `temporaryFile` as the entry for `key`, without
    /// reading it into memory. The cache takes ownership of the file: it is moved into the
    /// cache on success and deleted on failure. Put it on the same file system as the
    /// cache (``DiskCache/temporaryDirectory``) so adoption is a rename, not a copy.
    func storeFile(at temporaryFile: URL, metadata: CacheEntryMetadata, forKey key: String) throws

    /// Adopts a body streamed into the file `name` of `folder` (made by
    /// ``DownloadFolder/makeFile()``) as the entry for `key`, reaching the file by name
    /// through the folder's descriptor, never by path. The cache takes ownership of the
    /// file: it is moved into the cache on success and removed otherwise. Defaults to
    /// reading it into memory, ``store(_:metadata:forKey:)``, and removing it.
    func storeDownload(named name: String, in folder: DownloadFolder, metadata: CacheEntryMetadata, forKey key: String) throws

    /// Changes the metadata of an existing entry atomically, e.g. a `304 Not Modified`
    /// refreshing `expiresAt`. `update` may run more than once if another writer replaces
    /// the entry meanwhile; it must only change the metadata it is given.
    func updateMetadata(forKey key: String, _ update: (inout CacheEntryMetadata) -> Void) throws

    /// Removes the entry for `key`, if any.
    func removeEntry(forKey key: String)

    /// Removes every entry.
    func removeAll() throws

    /// Runs `write` — any number of the synchronous calls above, as one job — on the
    /// cache's own serial write queue, after every write submitted before it, and returns
    /// its result once it has finished. Never runs `write` on the cooperative thread pool.
    func performWrite<T: Sendable, E: Error>(_ write: @escaping @Sendable () throws(E) -> T) async throws(E) -> T

    /// Returns when every write submitted through ``performWrite(_:)`` before the call has
    /// finished, e.g. before the cache's folder is deleted.
    func flush() async

    /// The file holding `key`'s entry, for callers that show or hand on a path; `nil` when
    /// there is none or the cache does not keep entries as files. Defaults to `nil`.
    func fileURL(forKey key: String) -> URL?
}

extension DataCaching {
    /// `nil`: an implementation that keeps entries as files overrides it.
    public func fileURL(forKey key: String) -> URL? { nil }

    /// Reads the download into memory through `folder`, stores it and removes the file.
    public func storeDownload(named name: String, in folder: DownloadFolder, metadata: CacheEntryMetadata, forKey key: String) throws {
        defer { folder.remove(name) }
        try store(folder.read(name), metadata: metadata, forKey: key)
    }
}
