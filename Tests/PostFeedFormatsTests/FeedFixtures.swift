import Foundation
import PostFeedFormats

/// The recorded documents under `Fixtures/feeds/`, found from this file's path.
enum FeedFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feeds")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func parse(_ name: String, contentType: String? = nil, baseURL: String = "https://feeds.example.net/feed") throws -> FeedDocument {
        try FeedParser.parse(data(name), contentType: contentType, baseURL: URL(string: baseURL))
    }

    /// The UTC date of `text` (`2003-06-03T09:39:21Z`).
    static func date(_ text: String) -> Date? {
        FeedDate.parseRFC3339(text)
    }
}
