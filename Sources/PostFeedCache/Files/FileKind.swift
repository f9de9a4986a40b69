import Foundation

/// What is at a path (`lstat`), without following a final symbolic link; `nil` when
/// nothing is. For writers that must not replace a device, a FIFO or a link with a file.
public enum FileKind: Equatable, Sendable {
    case regular, directory, symbolicLink, device, fifo, socket, other

    public static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            // A link to a folder counts as the folder (`--output ~/Pictures` may be a link).
            return following(path) == .directory ? .directory : .symbolicLink
        default: return kind(info.st_mode)
        }
    }

    /// What a path names once every link is followed; `nil` when that is nothing.
    public static func following(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(info.st_mode)
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFCHR, S_IFBLK: return .device
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .other
        }
    }
}
