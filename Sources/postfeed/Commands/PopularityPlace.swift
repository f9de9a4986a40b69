import Foundation
import PostFeed
import PostFeedPreview

/// How far `list --sort popularity` has gone through the popularity order: the posts it
/// printed, kept in `Cache/State/popularity-order-state.json` so the next run continues
/// with the most popular posts not printed yet.
///
/// Kept apart from the reader's place (`infinite-scroll-state.json`): the popularity
/// order is a view over the whole feed, and printing it never moves the place that `list`,
/// `page`, `mode` and `browse` share. A file that cannot be used (not JSON, another
/// version, another backend) is kept aside as `*.corrupt-<time>` with one line saying why,
/// and the order starts from the top.
///
/// Read, written and set aside through ``ListStateStore`` as the state files are: by name
/// in `State/`, never through a symbolic link, and a set-aside never overwrites an earlier
/// one (two within one second get `-2`, `-3`, …).
struct PopularityPlace: Codable, Equatable {
    /// The schema version this build writes and reads.
    static let currentVersion = 1
    /// The file's name in the state folder.
    static let fileName = "popularity-order-state.json"

    var version = Self.currentVersion
    /// `BackendDescription.identity` of the backend whose posts these are.
    var backendIdentity: String
    /// Ids of the posts printed so far, in the order they were printed.
    var shownPostIDs: [PostID]
    /// When the file was written, ISO-8601 (UTC).
    var savedAt: String

    /// The place saved for `backendIdentity` in `store`'s State folder, or an empty one;
    /// `notices` gets one line when a file was there but could not be used.
    static func load(from store: ListStateStore, backendIdentity: String, notices: inout [String]) -> PopularityPlace {
        let empty = PopularityPlace(backendIdentity: backendIdentity, shownPostIDs: [], savedAt: "")
        let file = store.directory.appendingPathComponent(fileName)
        let problem: String
        do {
            guard let data = try store.contents(ofFileNamed: fileName, maximumBytes: maximumBytes) else { return empty }
            if let place = try? JSONDecoder().decode(PopularityPlace.self, from: data) {
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
        } catch where error.systemError == ELOOP {
            // A link: refused and left where it is.
            notices.append("\(error.message); starting the popularity order from the top")
            return empty
        } catch {
            problem = "is not a readable popularity order (\(error.message))"
        }
        let aside = try? store.setAside(fileNamed: fileName)
        notices.append(
            "\(file.path) \(problem); starting the popularity order from the top"
                + (aside.map { " (the file is kept as \($0.lastPathComponent))" } ?? ""))
        return empty
    }

    /// Writes the place atomically (a rename), naming the file when that fails.
    func save(in store: ListStateStore) throws(CLIError) {
        var copy = self
        copy.savedAt = Post.formatDate(Date())
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(copy)
        } catch {
            throw CLIError("cannot encode the popularity order: \(error)")
        }
        do {
            try store.write(data, toFileNamed: Self.fileName)
        } catch {
            throw CLIError(error.message)
        }
    }

    /// A file larger than this is not a popularity order (10 million ids fit).
    static let maximumBytes = 128 << 20
}
