import PostFeedModels

/// How the `postFeed` flavor writes the ids of `Fixtures/posts.json` (integers there).
///
/// ```swift
/// var configuration = FixtureServerConfiguration()
/// configuration.postIDs = .strings   // "t3_…", 21-digit numbers and strings
/// ```
public enum ServedPostIDs: String, Sendable, Hashable, CaseIterable {
    /// As in the file: `"id": 7`.
    case numbers
    /// Ids as real backends beyond PostFeed's own send them, in turns by the fixture id
    /// `n`: `n % 3 == 1` a Reddit-style string (`"id": "t3_<n in base 36>"`), `n % 3 == 2`
    /// an integer beyond 64 bits written as a JSON number (`"id": 109876543210000000002`),
    /// `n % 3 == 0` such an integer written as a string, as Mastodon does
    /// (`"id": "109876543210000000003"`). The post route (`/api/posts/{id}`) takes the
    /// served id.
    case strings

    /// The digits put before a fixture id (9 digits, zero-padded) to make it a 21-digit id.
    static let largePrefix = "109876543210"

    /// The id the server sends for fixture id `id`, and whether it is written as a JSON number.
    func served(_ id: PostID) -> (id: PostID, asNumber: Bool) {
        guard self == .strings, let number = id.integerValue, number >= 0, number < 1_000_000_000 else {
            return (id, id.integerValue != nil)
        }
        switch number % 3 {
        case 1: return (PostID("t3_" + String(number, radix: 36)) ?? id, false)
        default:
            let digits = String(number)
            let large = PostID(Self.largePrefix + String(repeating: "0", count: 9 - digits.count) + digits) ?? id
            return (large, number % 3 == 2)
        }
    }

    /// The fixture id of a served id, `nil` when it serves none.
    func fixtureID(ofServed text: String) -> PostID? {
        switch self {
        case .numbers: return PostID.canonicalInteger(text).map { PostID($0) }
        case .strings:
            if text.hasPrefix("t3_"), let number = Int(text.dropFirst(3), radix: 36), number % 3 == 1 {
                return PostID(number)
            }
            if text.hasPrefix(Self.largePrefix), text.utf8.count == Self.largePrefix.utf8.count + 9,
               let number = Int(text.dropFirst(Self.largePrefix.count)), number % 3 != 1 {
                return PostID(number)
            }
            return nil
        }
    }

    /// `posts` with their served ids.
    func served(_ posts: [Post]) -> [Post] {
        guard self != .numbers else { return posts }
        return posts.map { post in
            var copy = post
            copy.id = served(post.id).id
            return copy
        }
    }

    /// `body` (a JSON encoding of posts, a page or one post) with the ids served as numbers
    /// written as numbers: `JSONEncoder` writes an id beyond 64 bits as a string.
    func numbersWritten(in body: [UInt8]) -> [UInt8] {
        guard self == .strings, let json = try? JSONValue.parse(body) else { return body }
        func rewrite(_ post: JSONValue) -> JSONValue {
            guard case .string(let text)? = post["id"], let fixture = fixtureID(ofServed: text),
                  served(fixture).asNumber
            else { return post }
            return post.setting("id", to: .number(text))
        }
        let rewritten: JSONValue
        if case .array(let posts)? = json["posts"] {
            rewritten = json.setting("posts", to: .array(posts.map(rewrite)))
        } else {
            rewritten = rewrite(json)
        }
        return Array(rewritten.serialized().utf8)
    }
}
