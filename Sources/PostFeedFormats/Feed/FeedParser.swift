import Foundation
import PostFeedModels

/// Reads one page of a feed: RSS 2.0, Atom (RFC 4287/5005) or JSON Feed 1.1.
///
/// XML goes through libxml2 with no network access, no entity substitution, no DTD
/// loading, its default depth and size limits, and any entity declaration refused: a
/// billion-laughs document or `<!ENTITY x SYSTEM "file:///etc/passwd">` fails with
/// ``FeedParseError/Kind/refusedEntities`` and nothing is expanded or read. JSON goes
/// through the models' `JSONValue` parser (512 levels at most).
///
/// ```swift
/// let page = try FeedParser.parse(body, contentType: response.contentType, baseURL: url)
/// ```
public enum FeedParser {
    /// Parses `data` as the feed its content type and body show (``FeedFormat/detect(contentType:body:)``).
    /// - Parameters:
    ///   - contentType: the response's `Content-Type`, if any.
    ///   - baseURL: the document's URL: relative links and images resolve against it, and
    ///     error messages name it.
    /// - Throws: ``FeedParseError``: not a feed, malformed, refused entities, too deep.
    public static func parse(_ data: Data, contentType: String?, baseURL: URL?) throws(FeedParseError) -> FeedDocument {
        guard let format = FeedFormat.detect(contentType: contentType, body: data) else {
            let what = contentType.map { "a \($0.split(separator: ";").first.map(String.init) ?? $0) body" } ?? "the body"
            throw FeedParseError(kind: .notAFeed, message: "\(what) is not RSS, Atom or JSON Feed", url: baseURL)
        }
        return try parse(data, as: format, baseURL: baseURL)
    }

    /// Parses `data` as `format`.
    /// - Throws: ``FeedParseError``.
    public static func parse(_ data: Data, as format: FeedFormat, baseURL: URL?) throws(FeedParseError) -> FeedDocument {
        switch format {
        case .jsonFeed:
            let json: JSONValue
            do {
                json = try JSONValue.parse(data)
            } catch {
                let kind: FeedParseError.Kind = error.message.contains("nest") ? .tooDeep : .malformed
                throw FeedParseError(kind: kind, message: "not JSON: \(error.message)", line: error.line, url: baseURL)
            }
            return try JSONFeedReader(baseURL: baseURL).read(json)
        case .rss, .atom:
            let parsed = data.withUnsafeBytes { bytes in
                Result { () throws(XMLDocument.Failure) -> XMLDocument in try XMLDocument.parse(bytes) }
            }
            let document: XMLDocument
            switch parsed {
            case .success(let value):
                document = value
            case .failure(.entityDeclaration):
                throw FeedParseError(
                    kind: .refusedEntities,
                    message: "the document declares entities (<!ENTITY …>), which feeds never need; refused unexpanded", url: baseURL)
            case .failure(.tooDeep(let line)):
                throw FeedParseError(kind: .tooDeep, message: "elements nested more than 256 deep", line: line, url: baseURL)
            case .failure(.malformed(let message, let line)):
                throw FeedParseError(kind: .malformed, message: "not XML: \(message)", line: line, url: baseURL)
            }
            return try document.withRootElement { root throws(FeedParseError) -> FeedDocument in
                switch root.localName {
                case "rss", "RDF", "channel":
                    return RSSReader(baseURL: baseURL).read(root: root)
                case "feed":
                    return AtomReader(baseURL: baseURL, namespace: root.namespace).read(root: root)
                default:
                    throw FeedParseError(kind: .notAFeed, message: "an XML document whose root is <\(root.localName)>, not <rss> or <feed>", url: baseURL)
                }
            }
        }
    }
}
