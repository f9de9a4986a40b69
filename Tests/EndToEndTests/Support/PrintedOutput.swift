import Foundation
import PostFeedModels

/// The posts a text run of `list` or `page` printed, read back from its stdout:
///
/// ```
///   41. Field guide: retry loops and code reviews
///       Ethan Brooks · 2025-02-05 · popularity 1.00 · id 42
///       image 640×480 png at cache/ImageCache/3f/3f9a… (network)
/// ```
struct PrintedList {
    struct Entry {
        var position: Int
        var title: String
        var id: PostID?
        var imageLine: String?
    }

    var entries: [Entry] = []
    var positions: [Int] { entries.map(\.position) }
    var ids: [PostID] { entries.compactMap(\.id) }
    var imageLines: [String] { entries.compactMap(\.imageLine) }

    init(_ output: String) {
        for line in output.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("      "), !entries.isEmpty {
                if trimmed.hasPrefix("image") {
                    entries[entries.count - 1].imageLine = trimmed
                } else if let range = trimmed.range(of: "id ", options: .backwards),
                    let id = PostID(String(trimmed[range.upperBound...]))
                {
                    entries[entries.count - 1].id = id
                }
                continue
            }
            guard let dot = trimmed.firstIndex(of: "."), let position = Int(trimmed[..<dot]) else { continue }
            let title = trimmed[trimmed.index(after: dot)...].trimmingCharacters(in: .whitespaces)
            entries.append(Entry(position: position, title: title))
        }
    }
}

// MARK: - JSON shapes of the CLI's output and files (decoded independently of the library)

/// `list --json` / `page --json`.
struct ListJSON: Decodable {
    struct Line: Decodable {
        var position: Int
        var post: PostJSON
        var image: ImageJSON?
    }
    var mode: String
    var page: Int?
    var totalPages: Int?
    var posts: [Line]
    var loaded: Int?
    var totalCount: Int?
    var endReached: Bool
    var stale: Bool
    var notices: [String]
}

struct PostJSON: Decodable {
    /// A number or a string on the wire.
    var id: PostID
    var title: String
    var body: String?
}

struct ImageJSON: Decodable {
    /// Absent when the post's image URL is empty.
    var url: String?
    var path: String?
    var width: Int?
    var height: Int?
    var format: String?
    var source: String?
    var error: String?
}

/// `show --json`.
struct ShowJSON: Decodable {
    var post: PostJSON
    var image: ImageJSON?
}

/// A list-state file in `State/` (DESIGN.md, "List state").
struct StateJSON: Decodable {
    struct Anchor: Decodable {
        /// A number or a string (state version 3).
        var postID: PostID
        var index: Int
    }
    var version: Int
    var mode: String
    var backendIdentity: String
    var pageSize: Int
    var savedAt: String
    var anchor: Anchor?
    var totalCount: Int?
    var endReached: Bool
    /// Expanded from the file's runs (`[[1, 20], 25, "t3_a"]` is 1…20, 25 and t3_a; state
    /// version 2 and 3).
    var loadedPostIDs: [PostID]
    var currentPage: Int?

    private enum CodingKeys: String, CodingKey {
        case version, mode, backendIdentity, pageSize, savedAt, anchor, totalCount, endReached, loadedPostIDs, currentPage
    }

    /// One element of `loadedPostIDs`: an id, or a `[first, last]` run counting up or down.
    private enum IDRun: Decodable {
        case id(PostID)
        case run(Int, Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(Int.self) {
                self = .id(PostID(id))
            } else if let text = try? container.decode(String.self), let id = PostID(text) {
                self = .id(id)
            } else {
                let pair = try container.decode([Int].self)
                guard pair.count == 2 else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a run is [first, last]")
                }
                self = .run(pair[0], pair[1])
            }
        }

        var ids: [PostID] {
            switch self {
            case .id(let id): [id]
            case .run(let first, let last): first <= last ? (first...last).map { PostID($0) } : (last...first).reversed().map { PostID($0) }
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        mode = try container.decode(String.self, forKey: .mode)
        backendIdentity = try container.decode(String.self, forKey: .backendIdentity)
        pageSize = try container.decode(Int.self, forKey: .pageSize)
        savedAt = try container.decode(String.self, forKey: .savedAt)
        anchor = try container.decodeIfPresent(Anchor.self, forKey: .anchor)
        totalCount = try container.decodeIfPresent(Int.self, forKey: .totalCount)
        endReached = try container.decode(Bool.self, forKey: .endReached)
        loadedPostIDs = try container.decode([IDRun].self, forKey: .loadedPostIDs).flatMap(\.ids)
        currentPage = try container.decodeIfPresent(Int.self, forKey: .currentPage)
    }
}

/// `mode --json` after a switch.
struct ModeJSON: Decodable {
    var mode: String
    var page: Int?
    var anchorPostID: PostID?
    var anchorPosition: Int?
    var startedFresh: Bool
    var alreadyCurrent: Bool
}

extension Decodable {
    /// Decodes `text` (a run's stdout or a file's contents), naming what it was on failure.
    static func decode(_ text: String, from what: String) throws -> Self {
        do {
            return try JSONDecoder().decode(Self.self, from: Data(text.utf8))
        } catch {
            throw EndToEndError("\(what) is not the expected JSON (\(error)):\n\(text)")
        }
    }

    static func decode(contentsOf file: URL) throws -> Self {
        try decode(String(decoding: try Data(contentsOf: file), as: UTF8.self), from: file.path)
    }
}
