import Foundation
import Synchronization

extension DiskCache {
    // MARK: DataCaching writes

    /// Writes `data` and `metadata` to a temporary file beside the entry, `fsync`s it and
    /// renames it over the entry; trims if the directory is now over its size limit.
    ///
    /// - Throws: ``DiskCacheError``: ``DiskCacheError/Code/entryTooLarge``, or — once, when
    ///   the disk starts refusing — ``DiskCacheError/Code/notWritable`` /
    ///   ``DiskCacheError/Code/diskFull`` (see the type's documentation).
    public func store(_ data: Data, metadata: CacheEntryMetadata, forKey key: String) throws {
        guard beginWrite() else { return }
        try recordingWriteOutcome {
            let name = CacheLayout.name(forKey: key)
            let trailer = try makeTrailer(bodyLength: data.count, bodyChecksum: EntryCodec.checksum(data),
                                          metadata: metadata, key: key, name: name)
            let size = data.count + trailer.count
            try checkEntrySize(size, key: key, name: name)
            _ = try writeAndCommit(name: name, key: key, size: size, replacing: nil) { file throws(SystemCallError) in
                try file.write(data, at: 0)
                try file.write(trailer, at: data.count)
            }
        }
    }

    /// Hashes the file in 1 MiB chunks, appends metadata and footer to it, `fsync`s it and
    /// renames it into place; a file on another file system is copied instead. The file is
    /// gone afterwards, whatever the outcome.
    public func storeFile(at temporaryFile: URL, metadata: CacheEntryMetadata, forKey key: String) throws {
        let sourcePath = temporaryFile.standardizedFileURL.path
        let source = try? downloadLocation(sourcePath)
        // Unlinks the name: a link given as the download goes as a link, its target stays.
        let removeSource = { if let source { source.folder.remove(source.name) } }
        guard beginWrite() else {
            removeSource()
            return
        }
        do {
            try recordingWriteOutcome {
                try adopt(sourcePath, at: source, metadata: metadata, key: key)
            }
        } catch {
            removeSource()
            throw error
        }
        removeSource()  // still there only if the write was refused and swallowed
    }

    /// Adopts the download `name` in `folder` — reached by name through the folder's
    /// descriptor, so a link put in place of `.tmp` meanwhile is not followed — as
    /// ``storeFile(at:metadata:forKey:)`` does. The file is gone afterwards, whatever the outcome.
    public func storeDownload(named name: String, in folder: DownloadFolder, metadata: CacheEntryMetadata, forKey key: String) throws {
        let source = (folder: folder.handle, name: name)
        defer { folder.remove(name) }  // still there only if the write was refused or failed
        guard beginWrite() else { return }
        try recordingWriteOutcome {
            try adopt(folder.path(of: name), at: source, metadata: metadata, key: key)
        }
    }

    /// The folder and name of a download to adopt: through the held `.tmp` handle when it is
    /// in ``temporaryDirectory``, else through its folder opened by path (the caller's).
    private func downloadLocation(_ sourcePath: String) throws(SystemCallError) -> (folder: DirectoryHandle, name: String) {
        let folder = (sourcePath as NSString).deletingLastPathComponent
        let name = (sourcePath as NSString).lastPathComponent
        if folder == layout.temporaryDirectory { return (try folders.temporary(), name) }
        return (try DirectoryHandle.openNamed(folder.isEmpty ? "." : folder, creating: false), name)
    }

    /// Rewrites the entry (body copied, verified) with the updated metadata, committing only
    /// over the file it read; retried up to five times if another writer replaces it.
    ///
    /// - Throws: ``DiskCacheError/Code/entryNotFound`` when there is no valid entry.
    public func updateMetadata(forKey key: String, _ update: (inout CacheEntryMetadata) -> Void) throws {
        guard beginWrite() else { return }
        try recordingWriteOutcome {
            let name = CacheLayout.name(forKey: key)
            // Compare-and-swap: the rewrite commits only over the very file it was read
            // from, so a concurrent `store` of a newer body is never overwritten with the
            // old one. On a conflict, read again and reapply.
            for _ in 0..<5 {
                let (entry, footer, identity) = try readForUpdate(name: name, key: key)
                var metadata = entry.metadata
                update(&metadata)
                let body = entry.data
                let trailer = try makeTrailer(bodyLength: body.count, bodyChecksum: footer.bodyChecksum,
                                              metadata: metadata, key: key, name: name)
                let committed = try writeAndCommit(
                    name: name, key: key, size: body.count + trailer.count, replacing: identity
                ) { file throws(SystemCallError) in
                    try file.write(body, at: 0)
                    try file.write(trailer, at: body.count)
                }
                if committed { return }
            }
            throw DiskCacheError(.ioFailure, path: layout.entryPath(forName: name), key: key,
                                 reason: "the entry kept changing while its metadata was updated; try again")
        }
    }

    // MARK: Steps

    /// The metadata as stored: keyed by `key`, with `expiresAt` defaulted.
    private func prepared(_ metadata: CacheEntryMetadata, key: String) -> CacheEntryMetadata {
        var metadata = metadata
        metadata.key = key
        if metadata.expiresAt == nil {
            metadata.expiresAt = metadata.storedAt.addingTimeInterval(configuration.defaultTTL.timeInterval)
        }
        return metadata
    }

    private func makeTrailer(bodyLength: Int, bodyChecksum: [UInt8], metadata: CacheEntryMetadata,
                             key: String, name: String) throws -> Data {
        do {
            return try EntryCodec.trailer(bodyLength: bodyLength, bodyChecksum: bodyChecksum,
                                          metadata: prepared(metadata, key: key))
        } catch {
            throw DiskCacheError(.ioFailure, path: layout.entryPath(forName: name), key: key,
                                 reason: "metadata cannot be encoded: \(error)")
        }
    }

    /// Refuses entries a trim could not make room for.
    private func checkEntrySize(_ size: Int, key: String, name: String) throws {
        let limit = configuration.lowWaterMark
        guard size <= limit else {
            throw DiskCacheError(.entryTooLarge, path: layout.entryPath(forName: name), key: key,
                                 reason: "\(size) bytes, the cache keeps entries up to \(limit) bytes")
        }
    }

    /// Reads and verifies the current entry for an update; a corrupt one is removed.
    private func readForUpdate(name: String, key: String) throws -> (DiskCacheEntry, EntryFooter, FileIdentity) {
        let path = layout.entryPath(forName: name)
        let opened: SystemFile
        do throws(SystemCallError) {
            opened = try openEntry(name)
        } catch {
            if error.isSymbolicLink { throw DiskCacheError(error, key: key) }
            throw DiskCacheError(.entryNotFound, path: path, key: key, reason: "no entry file")
        }
        guard let status = try? opened.status() else {
            throw DiskCacheError(.entryNotFound, path: path, key: key, reason: "no entry file")
        }
        let file = opened
        let identity = FileIdentity(status)
        do {
            let (entry, footer) = try EntryCodec.read(file, size: Int(status.st_size), expectedName: name)
            return (entry, footer, identity)
        } catch {
            removeCorruptEntry(named: name, identity: identity)
            throw DiskCacheError(.entryNotFound, path: path, key: key,
                                 reason: "the entry was corrupt (\(error)) and has been removed")
        }
    }

    /// Adopts a streamed body: hashes it in chunks, appends the trailer in place, syncs,
    /// and renames it over the entry. A file on another file system is copied instead.
    /// The download is opened by name in its folder, never through a link: a link given as
    /// the download is refused (``DiskCacheError/Code/symbolicLink``), not written through.
    private func adopt(
        _ sourcePath: String, at source: (folder: DirectoryHandle, name: String)?, metadata: CacheEntryMetadata, key: String
    ) throws {
        let name = CacheLayout.name(forKey: key)
        let file: SystemFile
        let status: stat
        let bodyChecksum: [UInt8]
        do throws(SystemCallError) {
            guard let source else { throw SystemCallError(operation: "open", path: sourcePath, errno: ENOENT) }
            file = try source.folder.open(source.name, flags: O_RDWR)
            status = try file.status()
            guard FileSystem.isRegularFile(status) else {
                throw SystemCallError(operation: "open", path: sourcePath, errno: EINVAL)
            }
            var hasher = CRC32C()
            var offset = 0
            let bodyLength = Int(status.st_size)
            while offset < bodyLength {
                let chunk = try file.read(count: min(1 << 20, bodyLength - offset), at: offset)
                hasher.update(chunk)
                offset += chunk.count
            }
            bodyChecksum = CRC32C.bytes(hasher.value)
        } catch {
            if error.isSymbolicLink { throw DiskCacheError(error, key: key) }
            throw DiskCacheError(.temporaryFileUnavailable, path: sourcePath, key: key, errno: error.errno,
                                 reason: "\(error.operation): \(error.message)")
        }
        let bodyLength = Int(status.st_size)
        let trailer = try makeTrailer(bodyLength: bodyLength, bodyChecksum: bodyChecksum,
                                      metadata: metadata, key: key, name: name)
        let size = bodyLength + trailer.count
        try checkEntrySize(size, key: key, name: name)

        let directoryStatus = (try? folders.directory())?.ownStatus()
        let sameFileSystem = directoryStatus.map { $0.st_dev == status.st_dev } ?? false
        guard sameFileSystem, let source else {
            _ = try writeAndCommit(name: name, key: key, size: size, replacing: nil) { target throws(SystemCallError) in
                var offset = 0
                while offset < bodyLength {
                    let chunk = try file.read(count: min(1 << 20, bodyLength - offset), at: offset)
                    try target.write(chunk, at: offset)
                    offset += chunk.count
                }
                try target.write(trailer, at: bodyLength)
            }
            return
        }
        do throws(SystemCallError) {
            try file.write(trailer, at: bodyLength)
            try file.setModificationTime(configuration.now())
            if configuration.synchronizesWrites { try file.synchronize() }
            _ = try folders.fanOut(CacheLayout.folderName(forName: name), creating: true)
        } catch {
            throw DiskCacheError(error, key: key, path: layout.entryPath(forName: name))
        }
        _ = try commit(source.name, in: source.folder, name: name, size: size, key: key, replacing: nil)
    }

    /// Writes a new temporary file beside the entry with `fill` (``AtomicFile``'s first
    /// half), stamps its last use, syncs it and commits it. Returns `false` when `replacing` no longer matches.
    private func writeAndCommit(
        name: String, key: String, size: Int, replacing expected: FileIdentity?,
        fill: (SystemFile) throws(SystemCallError) -> Void
    ) throws -> Bool {
        let temporaryName = CacheLayout.temporaryName(forName: name)
        let now = configuration.now()
        let folder: DirectoryHandle
        do throws(SystemCallError) {
            folder = try folders.fanOut(CacheLayout.folderName(forName: name), creating: true)
            try AtomicFile.writeSynced(named: temporaryName, in: folder, synchronizing: configuration.synchronizesWrites) {
                file throws(SystemCallError) in
                try fill(file)
                try file.setModificationTime(now)
            }
        } catch {
            throw DiskCacheError(error, key: key, path: layout.entryPath(forName: name))
        }
        do {
            let committed = try commit(temporaryName, in: folder, name: name, size: size, key: key, replacing: expected)
            if !committed { folder.remove(temporaryName) }
            return committed
        } catch {
            folder.remove(temporaryName)
            throw error
        }
    }

    /// Renames a finished file (`finishedName` in `source`) over the entry under the lock,
    /// updates the shared size ledger, and trims when the write took the total past the
    /// limit. A link at the entry's name is refused, not replaced.
    ///
    /// With `replacing` set, commits only if the entry is still that very file.
    private func commit(_ finishedName: String, in source: DirectoryHandle, name: String, size: Int, key: String,
                        replacing expected: FileIdentity?) throws -> Bool {
        let path = layout.entryPath(forName: name)
        return try lock.withExclusiveAccess { ledger in
            let folder: DirectoryHandle
            do throws(SystemCallError) {
                folder = try folders.fanOut(CacheLayout.folderName(forName: name), creating: true)
            } catch {
                throw DiskCacheError(error, key: key, path: path)
            }
            var current = ledger ?? recount()
            let previous = folder.status(name)
            if let previous, FileSystem.isSymbolicLink(previous) {
                throw DiskCacheError(.symbolicLink(path, operation: "rename"), key: key)
            }
            if let expected {
                guard let previous, FileIdentity(previous) == expected else { return false }
            }
            do throws(SystemCallError) {
                try source.rename(finishedName, to: name, in: folder)
            } catch {
                // ENOENT here means our finished file vanished, not that the disk refuses.
                throw error.errno == ENOENT
                    ? DiskCacheError(.ioFailure, path: source.child(finishedName), key: key, errno: error.errno,
                                     reason: "the finished file vanished before it was renamed into place")
                    : DiskCacheError(error, key: key)
            }
            if let previous {
                current.bytes -= Int64(previous.st_size)
            } else {
                current.entries += 1
            }
            current.bytes += Int64(size)
            if current.bytes > Int64(configuration.sizeLimit) {
                current = trimLocked(protecting: path).ledger
            }
            ledger = current
            return true
        }
    }
}
