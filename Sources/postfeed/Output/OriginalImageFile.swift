import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedCache
#if canImport(Glibc)
import Glibc
#endif

/// A post's original image bytes as an ordinary file (`image`, `show --open`).
enum OriginalImageFile {
    /// Writes the bytes of `image` (post `id`) to `output`, default `./<id>.<ext>`; returns
    /// the file and a warning when `output`'s extension names another format.
    ///
    /// - `output` naming a folder (it exists, or ends in `/`): `<folder>/<id>.<ext>`.
    /// - An ordinary file (or nothing) there: replaced atomically (a temporary file in the
    ///   same folder, renamed), with the umask's mode.
    /// - A symbolic link: the file it points to is written, the link stays.
    /// - A device, FIFO or socket (`/dev/stdout`, a pipe): written through, never replaced.
    /// - `-`: standard output (the file returned is `/dev/stdout`).
    ///
    /// `writableHint` ends the message when a place cannot be written for want of
    /// permission (what the caller's user can do about it).
    /// - Throws: ``CLIError`` naming the image URL when there is no image to write (the post
    ///   alone when its image URL is empty), or the
    ///   file and the reason (a missing folder, a file where a folder should be, no
    ///   permission) when it cannot be written.
    static func write(
        _ image: PostImage, postID id: PostID, to output: String?, writableHint: String = "choose a writable place with --output"
    ) throws -> (file: URL, warning: String?) {
        guard let response = image.response else {
            // An empty image URL names no image: there is nothing to load, and no address.
            if image.error?.code == .noImageURL || (image.url == nil && image.error == nil) {
                throw CLIError("post \(id.shown) has no image: \(image.error?.message ?? FeedClient.emptyImageURLMessage)")
            }
            let reason = image.error.map(RecoveryAdvice.message(for:)) ?? "unknown error"
            // A text that is no URL at all has none to name; the reason quotes it.
            let named = image.url.map { " (\($0.absoluteString))" } ?? ""
            throw CLIError("the image of post \(id.shown)\(named) could not be loaded: \(reason)")
        }
        // The pipeline sniffed the bytes already: every image it delivers has a format.
        let format = response.info.format
        // The id as a file name: no `/`, no `..`, bounded (`t3_1abc.png`, `tag%3Ax%2F1.png`).
        let defaultName = "\(id.fileNameSafe()).\(format.fileExtension)"
        var path = output ?? defaultName
        if path.isEmpty { throw ValidationError("--output is empty; give a file name, e.g. \(defaultName).") }
        if path == "-" {
            // The Unix convention: the bytes are the output (never a file named "-").
            try writeAll(response.data, to: STDOUT_FILENO, path: "standard output", hint: writableHint)
            return (URL(fileURLWithPath: "/dev/stdout"), nil)
        }
        if path.hasSuffix("/") || FileKind.of(path) == .directory {
            guard FileKind.of(path) == .directory else {
                throw CLIError("cannot write \(path.shownPath)\(defaultName): the folder \(path.shownPath) does not exist; create it first")
            }
            path = (path.hasSuffix("/") ? path : path + "/") + defaultName
        }
        if FileKind.of(path) == .symbolicLink {
            // Through the link to what it names, so the link stays a link.
            if let followed = FileKind.following(path), followed != .regular {
                try writeThrough(response.data, to: path, hint: writableHint)
            } else if let resolved = realpath(path, nil) {
                path = String(cString: resolved)
                free(resolved)
            } else if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                // A link to nothing yet: the file it names is created.
                path = target.hasPrefix("/")
                    ? target : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path
            }
        }
        let destination = URL(fileURLWithPath: path)
        switch FileKind.of(path) {
        case .symbolicLink:
            break  // written through above
        case .device, .fifo, .socket:
            try writeThrough(response.data, to: path, hint: writableHint)
        case .directory:
            throw CLIError("cannot write \(path.shownPath): it is a folder")
        default:
            try checkFolder(of: destination)
            try writeReplacing(response.data, at: destination, hint: writableHint)
        }
        var warning: String?
        let written = destination.pathExtension.lowercased()
        let known = ["jpg", "jpeg", "png", "webp", "gif"]
        if known.contains(written), written != format.fileExtension, !(written == "jpeg" && format.fileExtension == "jpg") {
            warning = "\(path.shownPath) holds a \(format.rawValue.uppercased()) image, whatever its .\(written) extension says"
        }
        return (destination, warning)
    }

    /// `wrote <path> (PNG, 1234 bytes)`.
    static func summary(_ file: URL, _ image: PostImage) -> String {
        let what = image.response?.info.format.rawValue.uppercased() ?? "image"
        return "wrote \(file.path.shownPath) (\(what), \(image.response?.data.count ?? 0) bytes)"
    }

    /// The folder `file` goes in must exist and be a folder.
    private static func checkFolder(of file: URL) throws {
        let folder = file.deletingLastPathComponent().path
        switch FileKind.of(folder) {
        case .directory: return
        case nil: throw CLIError("cannot write \(file.path.shownPath): the folder \(folder.shownPath) does not exist; create it first")
        default: throw CLIError("cannot write \(file.path.shownPath): \(folder.shownPath) is a file, not a folder")
        }
    }

    /// A temporary file beside `destination`, then renamed over it: a reader never sees
    /// half an image, and a failure leaves what was there.
    private static func writeReplacing(_ data: Data, at destination: URL, hint: String) throws {
        let folder = destination.deletingLastPathComponent().path
        let temporary = folder + "/.\(destination.lastPathComponent).postfeed-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            // The folder is there (checked before): it takes no new file (no permission, a
            // read-only or a virtual file system such as /proc), which is the reason to
            // give, not the temporary file's errno alone.
            let code = errno
            throw CLIError(
                "cannot write \(destination.path.shownPath): cannot create a file in \(folder.shownPath) (\(String(cString: strerror(code))));"
                    + " \(hint)")
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try writeAll(data, to: descriptor, path: destination.path, hint: hint)
        } catch {
            unlink(temporary)
            throw error
        }
        closed = true
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(destination.path, code, hint: hint)
        }
        guard rename(temporary, destination.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(destination.path, code, hint: hint)
        }
    }

    /// Writes into what is at `path` (a device, a FIFO), which is never replaced.
    private static func writeThrough(_ data: Data, to path: String, hint: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno, hint: hint) }
        defer { close(descriptor) }
        try writeAll(data, to: descriptor, path: path, hint: hint)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String, hint: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(descriptor, base + done, bytes.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw failure(path, count < 0 ? errno : ENOSPC, hint: hint) }
                done += count
            }
        }
    }

    private static func failure(_ path: String, _ code: Int32, hint: String) -> CLIError {
        let advice = code == EACCES || code == EPERM || code == EROFS ? "; \(hint)" : ""
        return CLIError("cannot write \(path.shownPath): \(String(cString: strerror(code)))\(advice)")
    }
}

/// Finds programs on `PATH`.
enum ExecutableSearch {
    /// The first executable file called `name` in the folders of `PATH`.
    static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
