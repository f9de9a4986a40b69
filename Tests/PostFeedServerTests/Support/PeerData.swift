import Foundation
import PostFeedServer

/// Item counts of the peer datasets, read independently of the server.
enum PeerData {
    static func jsonPlaceholderPostCount() throws -> Int {
        let data = try Data(contentsOf: FixtureLocator.peerDataDirectory().appendingPathComponent("jsonplaceholder/data.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (root?["posts"] as? [Any])?.count ?? -1
    }

    static func dummyJSONPostCount() throws -> Int {
        let data = try Data(contentsOf: FixtureLocator.peerDataDirectory().appendingPathComponent("dummyjson/posts.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? -1
    }
}

extension RawHTTPResponse {
    /// The body as an array of JSON objects.
    func objects() throws -> [[String: Any]] {
        (try jsonObject() as? [[String: Any]]) ?? []
    }

    /// The body as one JSON object.
    func object() throws -> [String: Any] {
        (try jsonObject() as? [String: Any]) ?? [:]
    }
}

/// The `id` of each JSON object, as Ints (numbers or numeric strings).
func ids(_ objects: [[String: Any]]) -> [Int] {
    objects.compactMap { ($0["id"] as? Int) ?? ($0["id"] as? String).flatMap(Int.init) }
}
