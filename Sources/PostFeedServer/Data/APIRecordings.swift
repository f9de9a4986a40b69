import Foundation
import PostFeedModels

/// Recorded responses of a real API, written from its public documentation, served by path
/// and query: `Fixtures/apis/<name>/recordings.json` and the body files beside it.
///
/// ```json
/// {
///   "responses": [
///     {"path": "/wp-json/wp/v2/posts", "query": "_embed&page=1&per_page=4", "status": 200,
///      "headers": {"X-WP-Total": "10", "Link": "<{base}/wp-json/wp/v2/posts?page=2>; rel=\"next\""},
///      "body": "posts-1.json"}
///   ]
/// }
/// ```
///
/// A request matches a recording when its path (trailing slashes aside) and its query
/// parameters (in any order, percent-decoded) are the same. `{base}` in headers and bodies
/// becomes the server's own origin (`http://127.0.0.1:PORT`), so next links and image URLs
/// point back at it.
struct APIRecordings: Sendable {
    struct Recording: Sendable {
        var path: String
        var query: [QueryItem]
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String
    }

    struct QueryItem: Sendable, Hashable, Comparable {
        var name: String
        var value: String
        static func < (lhs: QueryItem, rhs: QueryItem) -> Bool { (lhs.name, lhs.value) < (rhs.name, rhs.value) }
    }

    let recordings: [Recording]
    /// The folder the recordings came from, for messages.
    let folder: URL

    /// The recording answering `path` with `query` (its percent-encoded text), if any.
    func recording(path: String, query: String?) -> Recording? {
        let wanted = Self.queryItems(query ?? "")
        let trimmedPath = Self.trimmed(path)
        return recordings.first { Self.trimmed($0.path) == trimmedPath && $0.query == wanted }
    }

    /// Whether any recording is for `path`: other queries of it are answered `404`.
    func knows(path: String) -> Bool {
        let trimmedPath = Self.trimmed(path)
        return recordings.contains { Self.trimmed($0.path) == trimmedPath }
    }

    static func load(_ folder: URL) throws -> APIRecordings {
        let file = folder.appendingPathComponent("recordings.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw FixtureServerError.missingFile(file, hint: "the recorded API needs its recordings.json (the repository's Fixtures/apis/)")
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(try Data(contentsOf: file))
        } catch {
            throw FixtureServerError.unreadableData(file, reason: "\(error)")
        }
        guard let entries = root["responses"]?.arrayValue else {
            throw FixtureServerError.unreadableData(file, reason: "no \"responses\" array")
        }
        var recordings: [Recording] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let path)? = entry["path"], path.hasPrefix("/"),
                  case .string(let bodyName)? = entry["body"], !bodyName.contains("/")
            else {
                throw FixtureServerError.unreadableData(
                    file, reason: "responses[\(index)] needs a \"path\" starting with / and a \"body\" file name")
            }
            let bodyFile = folder.appendingPathComponent(bodyName)
            let body: String
            do {
                body = try String(contentsOf: bodyFile, encoding: .utf8)
            } catch {
                throw FixtureServerError.unreadableData(bodyFile, reason: "responses[\(index)]'s body cannot be read: \(error)")
            }
            var headers: [(name: String, value: String)] = []
            if case .object(let members)? = entry["headers"] {
                for member in members {
                    guard case .string(let value) = member.value else { continue }
                    headers.append((member.key, value))
                }
            }
            let queryText: String = if case .string(let text)? = entry["query"] { text } else { "" }
            recordings.append(
                Recording(
                    path: path, query: queryItems(queryText), status: entry["status"]?.integerValue ?? 200,
                    headers: headers, body: body))
        }
        return APIRecordings(recordings: recordings, folder: folder)
    }

    /// `a=1&b&c=%20` as sorted, percent-decoded items (`+` is a space, as forms send it).
    static func queryItems(_ text: String) -> [QueryItem] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return QueryItem(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
        }.sorted()
    }

    private static func trimmed(_ path: String) -> Substring {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path
    }
}
