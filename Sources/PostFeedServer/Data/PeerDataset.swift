import Foundation
import PostFeedModels

/// A list of items from another backend's dataset, kept exactly as written on disk.
struct PeerDataset: Sendable {
    let items: [JSONValue]

    /// `jsonplaceholder/data.json` → its `posts` array (what JSONPlaceholder and json-server serve).
    static func jsonPlaceholderPosts(peerDataDirectory: URL) throws -> PeerDataset {
        let file = peerDataDirectory.appendingPathComponent("jsonplaceholder/data.json")
        let root = try parse(file)
        guard let posts = root["posts"]?.arrayValue else {
            throw FixtureServerError.unreadableData(file, reason: "no \"posts\" array at the top level")
        }
        return PeerDataset(items: posts)
    }

    /// `dummyjson/posts.json`: a top-level array (or an object with a `posts` array).
    static func dummyJSONPosts(peerDataDirectory: URL) throws -> PeerDataset {
        let file = peerDataDirectory.appendingPathComponent("dummyjson/posts.json")
        let root = try parse(file)
        guard let posts = root.arrayValue ?? root["posts"]?.arrayValue else {
            throw FixtureServerError.unreadableData(file, reason: "expected an array of posts")
        }
        return PeerDataset(items: posts)
    }

    private static func parse(_ file: URL) throws -> JSONValue {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw FixtureServerError.missingFile(
                file,
                hint: "point FixtureServerConfiguration.peerDataDirectory (or "
                    + "\(FixtureLocator.peerDataEnvironmentKey)) at a folder holding jsonplaceholder/ and dummyjson/ (the repository's Fixtures/peer-data)")
        }
        do {
            return try LoadCache.value(for: LoadCache.identity(of: file)) {
                try JSONValue.parse(try Data(contentsOf: file))
            }
        } catch {
            throw FixtureServerError.unreadableData(file, reason: "\(error)")
        }
    }
}
