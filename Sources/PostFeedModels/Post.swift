import Foundation

/// One post of a feed: what both list modes show and the detail view prints in full.
///
/// Posts from other backends may lack an image, an author or a date; such a post is still
/// listed, without what it lacks, so those fields are optional.
///
/// The `Codable` form is PostFeed's wire format (the fixture backend's, see DESIGN.md):
/// `{"id":1,"title":"…","body":"…","author":"…","imageUrl":"/images/a.png",
///   "createdAt":"2024-05-01T10:00:00Z","popularity":0.42}`, and where a source says
/// them, `"bodyFormat":"html"` and `"link":"https://…"`.
public struct Post: Codable, Sendable, Hashable, Identifiable {
    /// The backend's identifier, unique within one backend: an opaque string (a number on
    /// the wire is its digits).
    public var id: PostID
    /// The headline; required on the wire.
    public var title: String
    /// The full text; `""` when the wire form leaves it out.
    public var body: String
    /// Who wrote the post; `nil` when the backend does not say.
    public var author: String?
    /// The image's URL. On the wire it may be absolute or relative to the backend; posts
    /// from ``HTTPPostRepository`` carry it resolved to an absolute URL.
    public var imageURL: String?
    /// When the post was published; ISO-8601 on the wire (see ``parseDate(_:)``).
    public var createdAt: Date?
    /// A backend-defined score (the fixture backend's lies in 0…1), used by the
    /// `popularity` ordering; `nil` when the backend has none.
    public var popularity: Double?
    /// How ``title`` and ``body`` are written (plain, HTML, Markdown), when the source says:
    /// a feed's item, a backend description's `bodyFormat`. `nil`: unknown, and the text
    /// is looked at (markup that is plainly HTML is read as HTML).
    public var bodyFormat: PostBodyFormat?
    /// The post's own page on the web (a feed item's link), absolute; `nil` when the
    /// source names none. Relative links in an HTML body resolve against it.
    public var link: String?

    /// Makes a post; the optional fields default to absent.
    public init(
        id: PostID,
        title: String,
        body: String,
        author: String? = nil,
        imageURL: String? = nil,
        createdAt: Date? = nil,
        popularity: Double? = nil,
        bodyFormat: PostBodyFormat? = nil,
        link: String? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.imageURL = imageURL
        self.createdAt = createdAt
        self.popularity = popularity
        self.bodyFormat = bodyFormat
        self.link = link
    }

    enum CodingKeys: String, CodingKey {
        case id, title, body, author
        case imageURL = "imageUrl"
        case createdAt, popularity, bodyFormat, link
    }

    /// Decodes the wire form: `id` and `title` are required, a missing `body` becomes `""`,
    /// and `createdAt`, when present, must be ISO-8601 (fractional seconds allowed).
    /// - Throws: `DecodingError` for a missing or mistyped required field, or a `createdAt`
    ///   that is not an ISO-8601 date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(PostID.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        author = try container.decodeIfPresent(String.self, forKey: .author)
        imageURL = try container.decodeIfPresent(String.self, forKey: .imageURL)
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity)
        // An unknown format is no reason to lose the post: its text is looked at instead.
        bodyFormat = (try? container.decodeIfPresent(PostBodyFormat.self, forKey: .bodyFormat)) ?? nil
        link = try container.decodeIfPresent(String.self, forKey: .link)
        if let text = try container.decodeIfPresent(String.self, forKey: .createdAt) {
            guard let date = Post.parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .createdAt, in: container,
                    debugDescription: "createdAt '\(text)' is not an ISO-8601 date")
            }
            createdAt = date
        } else {
            createdAt = nil
        }
    }

    /// Encodes the wire form: the image under `imageUrl`, `createdAt` as ISO-8601 in UTC,
    /// absent optionals left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encodeIfPresent(imageURL, forKey: .imageURL)
        try container.encodeIfPresent(createdAt.map(Post.formatDate), forKey: .createdAt)
        try container.encodeIfPresent(popularity, forKey: .popularity)
        try container.encodeIfPresent(bodyFormat, forKey: .bodyFormat)
        try container.encodeIfPresent(link, forKey: .link)
    }

    /// Parses ISO-8601 with or without fractional seconds.
    public static func parseDate(_ text: String) -> Date? {
        if let date = ISO8601UTC.parse(text) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Formats as ISO-8601 in UTC, e.g. `2024-05-01T10:00:00Z`.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
