import Foundation
import PostFeed

/// A post's original image bytes as an ordinary file (`image`, `show --open`).
enum OriginalImageFile {
    /// Writes the bytes of `image` (post `id`) to `output`, default `./<id>.<ext>`,
    /// atomically, with the umask's mode; returns the file.
    /// - Throws: ``CLIError`` naming the image URL when there is no image to write, or the
    ///   file when it cannot be written.
    static func write(_ image: PostImage, postID id: Int, to output: String?) throws -> URL {
        guard let response = image.response else {
            let reason = image.error.map { "\($0)" } ?? "unknown error"
            throw CLIError("the image of post \(id) (\(image.url.absoluteString)) could not be had: \(reason)")
        }
        // The pipeline sniffed the bytes already: every image it delivers has a format.
        let format = response.info.format
        let destination = URL(fileURLWithPath: output ?? "\(id).\(format.fileExtension)")
        do {
            try response.data.write(to: destination, options: .atomic)
        } catch {
            throw CLIError("could not write \(destination.path): \(error.localizedDescription)")
        }
        return destination
    }

    /// `wrote <path> (PNG, 1234 bytes)`.
    static func summary(_ file: URL, _ image: PostImage) -> String {
        let what = image.response?.info.format.rawValue.uppercased() ?? "image"
        return "wrote \(file.path) (\(what), \(image.response?.data.count ?? 0) bytes)"
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
