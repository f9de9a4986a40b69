/// What a backend's page bodies are: JSON (every preset but `feed`, and config files) or a
/// feed (the `feed` preset: `--api feed`, a config file's `"preset": "feed"`).
public enum PageFormat: String, Sendable, Hashable, CaseIterable {
    /// A JSON list the description's items, total, end signals and fields read.
    case json
    /// An RSS 2.0, Atom 1.0 or JSON Feed 1.1 document, recognised by its `Content-Type`,
    /// then by its body (PostFeedFormats' `FeedParser`). The base URL is the feed's own
    /// URL, its first page; the next page is the document's own (Atom's RFC 5005
    /// `<link rel="next">`, an RSS channel's `atom:link rel="next"`, JSON Feed's
    /// `next_url`), else, for RSS, WordPress's `?paged=N+1`, where a `404` is the end.
    /// The page size is the server's: no page-size parameter is sent.
    case feed
}
