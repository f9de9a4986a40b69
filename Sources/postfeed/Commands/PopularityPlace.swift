import Foundation
import PostFeed

/// How far `list --sort popularity` has gone through the popularity order: the posts it
/// printed, kept in `Cache/State/popularity-order-state.json` so the next run continues
/// with the most popular posts not printed yet.
///
/// Kept apart from the reader's place (`infinite-scroll-state.json`): the popularity
/// order is a view over the whole feed, and printing it never moves the place that `list`,
/// `page`, `mode` and `browse` share. A file that cannot be used (not JSON, another
/// version, another backend) is kept aside as `*.corrupt-<time>` with one line saying why,
/// and the order starts from the top.
struct PopularityPlace: Codable, Equatable {
    /// The schema version this build writes and reads.
    static let currentVersion = 1
    /// The file's name in the state folder.
    static let fileName = "popularity-order-state.json"

    var version = Self.currentVersion
    /// `BackendDescription.identity` of the backend whose posts these are.
    var backendIdentity: String
    /// Ids of the posts printed so far, in the order they were printed.
    var shownPostIDs: [Int]
    /// When the file was written, ISO-8601 (UTC).
    var savedAt: String

    /// The place saved for `backendIdentity` in `folder`, or an empty one; `notices` gets
    /// one line when a file was there but could not be used.
    static func load(from folder: URL, backendIdentity: String, notices: inout [String]) -> PopularityPlace {
        let empty = PopularityPlace(backendIdentity: backendIdentity, shownPostIDs: [], savedAt: "")
        let file = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return empty }
        let problem: String
        if let data = try? Data(contentsOf: file), data.count <= maximumBytes,
           let place = try? JSONDecoder().decode(PopularityPlace.self, from: data) {
            if place.version != currentVersion {
                problem = "is version \(place.version), not \(currentVersion)"
            } else if place.backendIdentity != backendIdentity {
                problem = "was saved for backend \(place.backendIdentity), not \(backendIdentity)"
            } else {
                return place
            }
        } else {
            problem = "is not a readable popularity order (JSON with version, backendIdentity, shownPostIDs)"
        }
        let aside = file.deletingLastPathComponent().appendingPathComponent(
            "\(fileName).corrupt-\(Int(Date().timeIntervalSince1970))")
        let kept = (try? FileManager.default.moveItem(at: file, to: aside)) != nil
        notices.append(
            "\(file.path) \(problem); starting the popularity order from the top"
                + (kept ? " (the file is kept as \(aside.lastPathComponent))" : ""))
        return empty
    }

    /// Writes the place atomically (a rename), naming the file when that fails.
    func save(in folder: URL) throws(CLIError) {
        let file = folder.appendingPathComponent(Self.fileName)
        var copy = self
        copy.savedAt = Post.formatDate(Date())
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(copy).write(to: file, options: .atomic)
        } catch {
            throw CLIError(
                "cannot save the popularity order in \(file.path): \(error.localizedDescription); "
                    + "check that the folder is writable and the disk has room")
        }
    }

    /// A file larger than this is not a popularity order (10 million ids fit).
    static let maximumBytes = 128 << 20
}
