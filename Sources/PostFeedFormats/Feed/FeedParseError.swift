import Foundation

/// Why a body could not be read as a feed. The message names the document's URL when the
/// caller gave one.
///
/// ```swift
/// do { _ = try FeedParser.parse(body, contentType: nil, baseURL: url) }
/// catch where error.kind == .refusedEntities { … }
/// ```
public struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, comparable with `==` (cases may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Hashable {
            case notAFeed, malformed, refusedEntities, tooDeep
        }

        private let code: Code

        /// Neither the content type nor the body is RSS, Atom or JSON Feed.
        public static let notAFeed = Kind(code: .notAFeed)
        /// Not well-formed XML or JSON, or a JSON Feed without its required members.
        public static let malformed = Kind(code: .malformed)
        /// The document declares entities (a DTD internal subset with `<!ENTITY`): refused
        /// before any is expanded or loaded, as billion-laughs and external-entity
        /// documents are.
        public static let refusedEntities = Kind(code: .refusedEntities)
        /// Nested deeper than the parser allows (256 levels for XML, 512 for JSON).
        public static let tooDeep = Kind(code: .tooDeep)

        /// `not a feed`, `malformed`, …
        public var description: String {
            switch code {
            case .notAFeed: "not a feed"
            case .malformed: "malformed"
            case .refusedEntities: "refused entities"
            case .tooDeep: "too deep"
            }
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// What was found, in words.
    public let message: String
    /// The 1-based line of the problem, when the parser knows it.
    public let line: Int?
    /// The document's URL, as given to the parser.
    public let url: URL?

    /// Makes an error.
    public init(kind: Kind, message: String, line: Int? = nil, url: URL? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
        self.url = url
    }

    /// `feed <url>: <message> (line N)`.
    public var description: String {
        var text = url.map { "feed \($0.absoluteString): " } ?? "feed: "
        text += message
        if let line, line > 0 { text += " (line \(line))" }
        return text
    }
}
