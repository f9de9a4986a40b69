import Foundation

/// One page of a feed (RSS 2.0, Atom or JSON Feed), read by ``FeedParser``.
///
/// ```swift
/// let document = try FeedParser.parse(body, contentType: "application/rss+xml", baseURL: url)
/// for item in document.items { print(item.id, item.title ?? "") }
/// if let next = document.nextPageURL { /* Atom rel="next", JSON Feed next_url */ }
/// ```
public struct FeedDocument: Sendable, Hashable {
    /// Which kind of document it was.
    public var format: FeedFormat
    /// The feed's title, entities decoded, on one line; `nil` when it has none.
    public var title: String?
    /// The site the feed belongs to: RSS `<link>`, Atom `<link rel="alternate">`, JSON Feed
    /// `home_page_url`, resolved against the document's URL.
    public var homeURL: URL?
    /// The next page, when the document names one: Atom's (or an RSS channel's
    /// `atom:link`) RFC 5005 `<link rel="next">`, JSON Feed's `next_url`. `nil` for a
    /// WordPress-style RSS feed, which is paged by `?paged=N` and ends with a 404.
    public var nextPageURL: URL?
    /// The entries, in document order.
    public var items: [FeedItem]
    /// What made the document, as it says (RSS `<generator>`, Atom `<generator>`'s text),
    /// on one line; `nil` when it does not say. A WordPress feed names
    /// `https://wordpress.org/?v=…`: it pages by `?paged=N`.
    public var generator: String?

    /// Makes a document.
    public init(format: FeedFormat, title: String? = nil, homeURL: URL? = nil, nextPageURL: URL? = nil, items: [FeedItem] = []) {
        self.format = format
        self.title = title
        self.homeURL = homeURL
        self.nextPageURL = nextPageURL
        self.items = items
    }
}

/// One entry of a feed: an RSS `<item>`, an Atom `<entry>`, a JSON Feed item. Feeds carry
/// no popularity, so posts made from items have none.
public struct FeedItem: Sendable, Hashable, Identifiable {
    /// An opaque identifier, stable across fetches: RSS `guid`, Atom `id`, JSON Feed `id`;
    /// else the item's link; else its enclosure's URL; else a hash of its title, date and
    /// content (`"hash:…"`), so every item has one.
    public var id: String
    /// The headline, entities decoded, on one line; `nil` when the item has none (a
    /// microblog post: its first line of text may serve).
    public var title: String?
    /// The full body as the feed sent it: RSS `content:encoded` (else `description`),
    /// Atom `content` (else `summary`), JSON Feed `content_html` (else `content_text`).
    public var content: FeedText?
    /// The short form, when the feed gives one besides the content: RSS `description` next
    /// to `content:encoded`, Atom `summary`, JSON Feed `summary`.
    public var summary: FeedText?
    /// Who wrote it: RSS `dc:creator` or `author`, Atom `author/name` (the entry's, else
    /// the feed's), JSON Feed `authors[0].name` (1.1) or `author.name` (1.0).
    public var author: String?
    /// When it was published: RSS `pubDate` (RFC 822) or `dc:date`, Atom `published`
    /// (else `updated`), JSON Feed `date_published`.
    public var published: Date?
    /// When it last changed: Atom `updated`, JSON Feed `date_modified`.
    public var updated: Date?
    /// The item's picture: `media:content` or `media:thumbnail` of an image, an
    /// `enclosure` of an image type, Atom `<link rel="enclosure">` of an image type,
    /// JSON Feed `image` (else `banner_image`); resolved against the document's URL.
    public var imageURL: URL?
    /// The page the item stands for (RSS `link`, Atom `<link rel="alternate">`, JSON Feed
    /// `url`), resolved against the document's URL.
    public var link: URL?
    /// What relative references inside ``content`` and ``summary`` resolve against: the
    /// `xml:base` in scope (Atom), else the item's link, else the document's URL.
    public var contentBaseURL: URL?

    /// Makes an item.
    public init(
        id: String, title: String? = nil, content: FeedText? = nil, summary: FeedText? = nil, author: String? = nil,
        published: Date? = nil, updated: Date? = nil, imageURL: URL? = nil, link: URL? = nil, contentBaseURL: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.content = content
        self.summary = summary
        self.author = author
        self.published = published
        self.updated = updated
        self.imageURL = imageURL
        self.link = link
        self.contentBaseURL = contentBaseURL ?? link
    }

    /// The body as terminal text: ``content``, else ``summary``, rendered (HTML through
    /// ``HTMLText``), relative links resolved against ``contentBaseURL``.
    public func renderedBody() -> RenderedText {
        guard let text = content ?? summary else { return RenderedText(body: "", links: []) }
        return text.rendered(baseURL: contentBaseURL)
    }
}

/// A body as a feed sends it: markup or plain text. The original is kept (`--json` shows
/// it); ``rendered(baseURL:)`` makes the terminal text.
public enum FeedText: Sendable, Hashable {
    /// HTML (RSS bodies, Atom `type="html"` and `type="xhtml"`, JSON Feed `content_html`).
    case html(String)
    /// Plain text (Atom `type="text"`, JSON Feed `content_text`).
    case text(String)
    /// Markdown (what some APIs send, such as Lemmy's).
    case markdown(String)

    /// The original string.
    public var original: String {
        switch self {
        case .html(let value), .text(let value), .markdown(let value): value
        }
    }

    /// Terminal text: paragraphs, lists, quotes, headings, numbered link references,
    /// entities decoded, control characters dropped.
    public func rendered(baseURL: URL? = nil) -> RenderedText {
        switch self {
        case .html(let html): HTMLText.render(html, baseURL: baseURL)
        case .text(let text): RenderedText(body: WhiteSpace.trimmed(TerminalText.laidOut(text)), links: [])
        case .markdown(let markdown): MarkdownText.render(markdown, baseURL: baseURL)
        }
    }
}
