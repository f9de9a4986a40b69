import Foundation

/// The well-known backends ``BackendDescription/preset(_:baseURL:)-(BackendPreset,_)`` describes, by the one
/// name used everywhere: the CLI's `--api`, `serve --api`, and config files.
public enum BackendPreset: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PostFeed's own API, page numbers (the fixture backend; the default).
    case postfeed
    /// PostFeed's own API in cursor mode.
    case postfeedCursor = "postfeed-cursor"
    /// json-server 0.17: `_page`/`_limit`, `X-Total-Count`, `Link`.
    case jsonServer = "json-server"
    /// json-server 1.x: `_page`/`_per_page`, `{data, pages, next}`.
    case jsonServerV1 = "json-server-v1"
    /// DummyJSON: `limit`/`skip`, `{posts, total, skip, limit}`.
    case dummyJSON = "dummyjson"
    /// WordPress REST API v2 (`/wp-json/wp/v2/posts`).
    case wordpress
    /// Mastodon's public timeline, or the timeline the base URL names.
    case mastodon
    /// Hacker News through Algolia's search API.
    case hackernews
    /// A subreddit's `/new.json`.
    case reddit
    /// Ghost's Content API (the `key` in the base URL's query).
    case ghost
    /// Lemmy API v3.
    case lemmy
    /// Discourse's `/latest.json`.
    case discourse
    /// Forem (dev.to) `/api/articles`.
    case forem
    /// An RSS 2.0, Atom 1.0 or JSON Feed 1.1 feed at the base URL itself (its format
    /// recognised by `Content-Type`, then by the body), paged the feed's own way.
    case feed

    /// The name, e.g. `json-server-v1`.
    public var description: String { rawValue }
}

extension BackendDescription {
    /// A description of the well-known backend `preset` at `baseURL`: the same as the
    /// preset named by its raw value (see the string form for what each one speaks).
    public static func preset(_ preset: BackendPreset, baseURL: URL) throws(BackendConfigurationError) -> BackendDescription {
        try self.preset(preset.rawValue, baseURL: baseURL)
    }
}
