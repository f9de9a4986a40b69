import Foundation
import PostFeedModels

/// JSON Feed 1.1 (and 1.0: `author` besides `authors`), read with the models' `JSONValue`.
struct JSONFeedReader {
    let baseURL: URL?

    func read(_ json: JSONValue) throws(FeedParseError) -> FeedDocument {
        guard case .object = json else {
            throw FeedParseError(kind: .malformed, message: "a JSON Feed must be an object, found \(json.typeDescription)", url: baseURL)
        }
        guard let version = json["version"]?.string, version.contains("jsonfeed.org/version/") else {
            throw FeedParseError(kind: .notAFeed, message: "a JSON object without a JSON Feed \"version\"", url: baseURL)
        }
        guard let items = json["items"]?.arrayValue else {
            throw FeedParseError(kind: .malformed, message: "a JSON Feed without an \"items\" array", url: baseURL)
        }
        let feedAuthor = Self.author(of: json)
        return FeedDocument(
            format: .jsonFeed,
            title: FeedReading.line(json["title"]?.string),
            homeURL: FeedReading.webURL(json["home_page_url"]?.string, base: baseURL),
            nextPageURL: FeedReading.webURL(json["next_url"]?.string, base: baseURL),
            items: items.compactMap { item(from: $0, feedAuthor: feedAuthor) })
    }

    private func item(from json: JSONValue, feedAuthor: String?) -> FeedItem? {
        guard case .object = json else { return nil }
        let link = FeedReading.webURL(json["url"]?.string ?? json["external_url"]?.string, base: baseURL)
        let html = json["content_html"]?.string.flatMap(Self.nonEmpty)
        let text = json["content_text"]?.string.flatMap(Self.nonEmpty)
        let content = html.map(FeedText.html) ?? text.map(FeedText.text)
        let summary = json["summary"]?.string.flatMap(Self.nonEmpty).map(FeedText.text)
        let title = FeedReading.line(json["title"]?.string)
        let published = json["date_published"]?.string.flatMap(FeedDate.parseRFC3339)
        let image = FeedReading.webURL(json["image"]?.string, base: baseURL)
            ?? FeedReading.webURL(json["banner_image"]?.string, base: baseURL)
            ?? Self.imageAttachment(of: json, base: baseURL)
        // The spec wants a string; numbers are common and kept as written.
        let id: String? = switch json["id"] {
        case .string(let value)?: FeedReading.identifier(value)
        case .number(let literal)?: literal
        default: nil
        }
        return FeedItem(
            id: id ?? link?.absoluteString
                ?? FeedReading.contentHash(title, published.map { String($0.timeIntervalSince1970) }, content?.original),
            title: title, content: content ?? summary, summary: content == nil ? nil : summary,
            author: Self.author(of: json) ?? feedAuthor, published: published,
            updated: json["date_modified"]?.string.flatMap(FeedDate.parseRFC3339),
            imageURL: image, link: link, contentBaseURL: link ?? baseURL)
    }

    private static func nonEmpty(_ text: String) -> String? {
        WhiteSpace.trimmed(text).isEmpty ? nil : text
    }

    /// `authors[0].name` (1.1), else `author.name` (1.0).
    private static func author(of json: JSONValue) -> String? {
        if let authors = json["authors"]?.arrayValue {
            for author in authors {
                if let name = FeedReading.line(author["name"]?.string) { return name }
            }
        }
        return FeedReading.line(json["author"]?["name"]?.string)
    }

    private static func imageAttachment(of json: JSONValue, base: URL?) -> URL? {
        for attachment in json["attachments"]?.arrayValue ?? [] where FeedReading.isImage(type: attachment["mime_type"]?.string) {
            if let url = FeedReading.webURL(attachment["url"]?.string, base: base) { return url }
        }
        return nil
    }
}

extension JSONValue {
    /// The string, or `nil` for another type.
    fileprivate var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
