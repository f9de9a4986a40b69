import Foundation
import PostFeedServer
import Testing

/// A copy of `Fixtures/` a test may change (replace an image: a new ETag, or bad bytes),
/// removed at the end.
final class FixtureCopy: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-e2e-fixtures-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.copyItem(at: FixtureLocator.fixturesDirectory(), to: directory)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func image(_ name: String) -> URL {
        directory.appendingPathComponent("images").appendingPathComponent(name)
    }

    /// Serves `bytes` as image `name` from the next server started on this copy.
    func replace(_ name: String, with bytes: Data) throws {
        try bytes.write(to: image(name))
    }

    /// Gives post `id` the image URL `text` in this copy's `posts.json` (`""`: an empty one).
    func setImageURL(_ text: String, ofPost id: Int) throws {
        let file = directory.appendingPathComponent("posts.json")
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        var posts = try #require(decoded, "posts.json is an array of posts")
        let found = posts.firstIndex { $0["id"] as? Int == id }
        let index = try #require(found, "no post \(id) in posts.json")
        posts[index]["imageUrl"] = text
        try JSONSerialization.data(withJSONObject: posts).write(to: file)
    }

    /// Rewrites every post's title in this copy's `posts.json` with `change` (its id and title).
    func rewriteTitles(_ change: (Int, String) -> String) throws {
        let file = directory.appendingPathComponent("posts.json")
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        var posts = try #require(decoded, "posts.json is an array of posts")
        for index in posts.indices {
            if let id = posts[index]["id"] as? Int, let title = posts[index]["title"] as? String {
                posts[index]["title"] = change(id, title)
            }
        }
        try JSONSerialization.data(withJSONObject: posts).write(to: file)
    }

    /// Rewrites every post's image URL in this copy's `posts.json` with `change` (posts
    /// without one keep none).
    func rewriteImageURLs(_ change: (String) -> String) throws {
        let file = directory.appendingPathComponent("posts.json")
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        var posts = try #require(decoded, "posts.json is an array of posts")
        for index in posts.indices {
            if let text = posts[index]["imageUrl"] as? String { posts[index]["imageUrl"] = change(text) }
        }
        try JSONSerialization.data(withJSONObject: posts).write(to: file)
    }

    /// A server over this copy whose images are revalidated on every use (`max-age=0`).
    func configuration(port: Int = 0) -> FixtureServerConfiguration {
        FixtureServerConfiguration(port: port, fixturesDirectory: directory, imageMaxAge: 0)
    }
}

/// Images no decoder can draw.
enum BadImages {
    /// A PNG whose IHDR declares `width`×`height` followed by a tiny IDAT: a few KB asking
    /// for gigabytes.
    static func pngBomb(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            data.append(contentsOf: bigEndian(UInt32(body.count)))
            let typed = Array(type.utf8) + body
            data.append(contentsOf: typed)
            data.append(contentsOf: bigEndian(crc32(typed)))
        }
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
        chunk("IDAT", [0x78, 0x01] + [UInt8](repeating: 0, count: 2000))
        chunk("IEND", [])
        return data
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
