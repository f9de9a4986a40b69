import Foundation

/// A folder streamed downloads are written into, held open: every download file in it is
/// created, read, adopted and removed by name through the folder's descriptor, never by
/// path, so a link put in place of the folder (or of a file in it) is never followed.
///
/// A ``DiskCache`` hands out its `.tmp` folder this way (``DiskCache/downloadFolder()``):
/// a body streamed into it is adopted by a rename on the same file system
/// (``DataCaching/storeDownload(named:in:metadata:forKey:)``). A folder a caller names
/// itself is opened by path once (``init(openingNamed:)``), following links as a shell would.
///
/// ```swift
/// let folder = try cache.downloadFolder()
/// let file = try folder.makeFile()          // O_CREAT|O_EXCL|O_NOFOLLOW
/// // … write the body through file.descriptor, close it …
/// try cache.storeDownload(named: file.name, in: folder, metadata: metadata, forKey: key)
/// ```
public struct DownloadFolder: Sendable {
    /// The open folder.
    let handle: DirectoryHandle

    /// The folder's path, for messages.
    public var path: String { handle.path }

    init(handle: DirectoryHandle) {
        self.handle = handle
    }

    /// The folder at `path`, which the caller named: created when missing (`mkdir -p`) and
    /// opened by path, following links in it.
    ///
    /// - Throws: ``SystemCallError`` naming the folder.
    public init(openingNamed path: String) throws(SystemCallError) {
        handle = try DirectoryHandle.openNamed(path, creating: true)
    }

    /// `<path>/<name>`, for messages.
    public func path(of name: String) -> String { handle.child(name) }

    /// Creates a new, empty file `.download-<random>` (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode
    /// 0600) and returns it open for writing; the caller closes the descriptor.
    ///
    /// - Throws: ``SystemCallError`` naming the file; ``SystemCallError/isSymbolicLink`` when
    ///   the name is taken by a link.
    public func makeFile() throws(SystemCallError) -> (descriptor: Int32, name: String) {
        var attempt = 0
        while true {
            let name = ".download-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            do throws(SystemCallError) {
                let file = try handle.open(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
                return (file.releaseDescriptor(), name)
            } catch where error.errno == EEXIST && !error.isSymbolicLink && attempt < 8 {
                attempt += 1
            }
        }
    }

    /// The whole file `name` (a download's body).
    ///
    /// - Throws: ``SystemCallError`` naming the file (a link there is refused).
    public func read(_ name: String) throws(SystemCallError) -> Data {
        let file = try handle.open(name, flags: O_RDONLY)
        return try file.readToEnd(limit: Int.max - 1)
    }

    /// Removes `name` (a link itself, never what it names); a name already gone counts as
    /// removed.
    @discardableResult
    public func remove(_ name: String) -> Bool { handle.remove(name) }
}
