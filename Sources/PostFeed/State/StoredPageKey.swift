import Foundation

/// How list state writes a ``PageKey``: an object with one key named after the style, so a
/// person can read it — `{"number": 4}`, `{"offset": 40}`, `{"cursor": "abc"}`,
/// `{"link": "https://…"}`; `{"cursor": null}` and `{"link": null}` are the first page.
///
/// `PageKey`'s own synthesized form (`{"number": {"_0": 4}}`) is an implementation detail
/// of Swift; the state file should not change if that does.
struct StoredPageKey: Codable, Sendable, Hashable {
    var key: PageKey

    init(_ key: PageKey) {
        self.key = key
    }

    private enum CodingKeys: String, CodingKey {
        case number, offset, cursor, link
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let styles = container.allKeys
        guard styles.count == 1, let style = styles.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a page key needs exactly one of number, offset, cursor or link"))
        }
        switch style {
        case .number:
            key = .number(try container.decode(Int.self, forKey: .number))
        case .offset:
            key = .offset(try container.decode(Int.self, forKey: .offset))
        case .cursor:
            key = .cursor(try container.decodeIfPresent(String.self, forKey: .cursor))
        case .link:
            guard let text = try container.decodeIfPresent(String.self, forKey: .link) else {
                key = .link(nil)
                return
            }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .link, in: container, debugDescription: "'\(text)' is not a URL")
            }
            key = .link(url)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch key {
        case .number(let number): try container.encode(number, forKey: .number)
        case .offset(let offset): try container.encode(offset, forKey: .offset)
        // `encode(Optional)` writes an explicit null: the first page.
        case .cursor(let cursor): try container.encode(cursor, forKey: .cursor)
        // A link resolved against a base URL with credentials carries them: never stored
        // (requests put the base URL's credentials back, see `BackendDescription.pageURL`).
        case .link(let url): try container.encode(url.map { BackendDescription.removingUserInfo($0.absoluteString) }, forKey: .link)
        }
    }
}
