/// Field names of an item, each with fallbacks tried in order; the first field present
/// (and not null) is used. Names may be dotted paths into nested objects.
///
/// The defaults read PostFeed's own posts and JSONPlaceholder's and DummyJSON's, which
/// have no image, author name or date. In a config file, `"fields": {"image": ["thumbnail"]}`
/// replaces the list of one part and keeps the defaults of the others.
public struct FieldMapping: Sendable, Hashable {
    /// A whole number, or a string of digits. Required.
    public var id: [String]
    /// A string. Required.
    public var title: [String]
    /// A string; a post without one has an empty body.
    public var body: [String]
    /// A string; a number (a user id) becomes `user 7`; an object gives its `name`,
    /// `username` or `firstName lastName`.
    public var author: [String]
    /// A URL string, absolute or relative to the base URL.
    public var image: [String]
    /// An ISO-8601 string (with or without fractional seconds), or Unix seconds.
    public var createdAt: [String]
    /// A number.
    public var popularity: [String]
    /// When no title field holds a non-empty string, the title is the first line of the
    /// body's text (read as ``BackendDescription/bodyFormat`` says), cut to 100 characters:
    /// a Mastodon status has no title. In a config file: `"fields": {"titleFromBody": true}`.
    public var titleFromBody = false

    /// Each part's field names, in the order they are tried; the defaults read PostFeed,
    /// JSONPlaceholder and DummyJSON posts.
    public init(
        id: [String] = ["id"],
        title: [String] = ["title", "name"],
        body: [String] = ["body", "content", "text"],
        author: [String] = ["author", "userName", "username", "userId"],
        image: [String] = ["imageUrl", "image", "thumbnailUrl", "url"],
        createdAt: [String] = ["createdAt", "created_at", "date", "publishedAt"],
        popularity: [String] = ["popularity", "score", "views"]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.image = image
        self.createdAt = createdAt
        self.popularity = popularity
    }
}
