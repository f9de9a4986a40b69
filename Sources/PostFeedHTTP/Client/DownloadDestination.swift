import Foundation

/// A new, empty file made for a download's body by a ``DownloadDestination``.
public struct DownloadFile: Sendable {
    /// Open for writing; the client writes the body through it and closes it when the
    /// attempt ends.
    public var descriptor: Int32
    /// Its name in the destination, by which the destination reads, adopts or removes it.
    public var name: String
    /// Its full path, for messages and ``HTTPDownload/fileURL``.
    public var path: String

    /// A file `name` at `path`, open for writing as `descriptor` (whose ownership passes to the client).
    public init(descriptor: Int32, name: String, path: String) {
        self.descriptor = descriptor
        self.name = name
        self.path = path
    }
}

/// Why a destination could not make a file: one line naming the folder or file, e.g.
/// "/home/me/.cache/postfeed/ImageCache/.tmp is a symbolic link; refused".
public struct DownloadDestinationError: Error, Sendable, CustomStringConvertible {
    /// The one line.
    public var description: String
    /// A symbolic link stood where the file or folder belongs, and was refused: the line
    /// names it, and that is its own remedy (remove the link).
    public var isRefusedLink: Bool

    /// An error saying `description`.
    public init(_ description: String, isRefusedLink: Bool = false) {
        self.description = description
        self.isRefusedLink = isRefusedLink
    }
}

/// Where ``HTTPLoading/download(_:to:)`` streams a body: whoever owns the folder makes
/// each file (the disk cache: `openat(O_CREAT|O_EXCL|O_NOFOLLOW)` through its `.tmp`
/// handle) and removes it by name, so the HTTP layer never goes by a path that a link
/// could redirect.
public protocol DownloadDestination: Sendable {
    /// A new, empty file, open for writing; called once per attempt.
    func makeFile() throws(DownloadDestinationError) -> DownloadFile
    /// Removes a file this destination made (a failed or retried attempt's).
    func removeFile(_ file: DownloadFile)
}

/// A folder the caller names by path (``HTTPLoading/download(_:into:)``): created when
/// missing, each file made there by `mkstemp` and removed by path.
struct NamedFolderDestination: DownloadDestination {
    let directory: URL

    func makeFile() throws(DownloadDestinationError) -> DownloadFile {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadDestinationError("\(directory.path): \(error.localizedDescription)")
        }
        var template = Array(directory.appendingPathComponent(".download-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw DownloadDestinationError("\(directory.path): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return DownloadFile(descriptor: descriptor, name: (path as NSString).lastPathComponent, path: path)
    }

    func removeFile(_ file: DownloadFile) {
        unlink(file.path)
    }
}
