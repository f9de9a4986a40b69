import Foundation
import PostFeedCache
import PostFeedHTTP

/// Where the loader streams a body before a cache adopts it (images): a disk cache's
/// `.tmp`, or a folder the caller named. Opened once per load as a ``DownloadFolder``, so
/// the file is made, read, adopted and removed by name through one open folder, never by
/// a path a link could redirect.
enum DownloadsLocation: Sendable {
    /// The disk cache's `.tmp` (``DiskCache/downloadFolder()``): a link there is refused.
    case cache(DiskCache)
    /// A folder the caller named, opened by path (following links, as the caller chose).
    case named(URL)

    /// The folder, open.
    ///
    /// - Throws: ``DownloadDestinationError`` with one line naming the folder.
    func open() throws(DownloadDestinationError) -> DownloadFolder {
        switch self {
        case .cache(let cache):
            do throws(DiskCacheError) {
                return try cache.downloadFolder()
            } catch {
                throw error.code == .symbolicLink
                    ? DownloadDestinationError("\(error.path) is a symbolic link; refused", isRefusedLink: true)
                    : DownloadDestinationError("\(error)")
            }
        case .named(let url):
            do throws(SystemCallError) {
                return try DownloadFolder(openingNamed: url.standardizedFileURL.path)
            } catch {
                throw DownloadDestinationError(error.description, isRefusedLink: error.isSymbolicLink)
            }
        }
    }
}

/// PostFeedHTTP's view of a ``DownloadFolder``: each attempt's file made there with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` and removed by name.
struct FolderDownloadDestination: DownloadDestination {
    let folder: DownloadFolder

    func makeFile() throws(DownloadDestinationError) -> DownloadFile {
        do throws(SystemCallError) {
            let (descriptor, name) = try folder.makeFile()
            return DownloadFile(descriptor: descriptor, name: name, path: folder.path(of: name))
        } catch {
            throw DownloadDestinationError(error.description, isRefusedLink: error.isSymbolicLink)
        }
    }

    func removeFile(_ file: DownloadFile) {
        folder.remove(file.name)
    }
}
