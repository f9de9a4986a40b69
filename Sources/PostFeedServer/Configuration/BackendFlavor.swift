/// Which backend convention the fixture server speaks.
///
/// `postFeed` serves `Fixtures/` with PostFeed's own API (DESIGN.md, "The backend API").
/// The other flavors emulate real backends over the peer datasets in `Fixtures/peer-data/`,
/// with each convention's own query parameters, body shape, headers and end-of-list behaviour,
/// so the client's backend descriptions can be tested against faithful copies:
///
/// | flavor | dataset | list request |
/// |---|---|---|
/// | ``postFeed`` | `Fixtures/posts.json` | `GET /api/posts?page=&limit=` or `?cursor=&limit=` |
/// | ``jsonServer017`` | JSONPlaceholder `data.json` → `posts` | `GET /posts?_page=&_limit=` |
/// | ``jsonServerV1`` | JSONPlaceholder `data.json` → `posts` | `GET /posts?_page=&_per_page=` |
/// | ``dummyJSON`` | DummyJSON `posts.json` | `GET /posts?limit=&skip=` |
/// | ``wordpress`` … ``forem`` | `Fixtures/apis/<name>/recordings.json` | the recorded requests (``APIRecordings``) |
public enum BackendFlavor: String, Sendable, Hashable, CaseIterable, Codable {
    /// PostFeed's own API over `Fixtures/`.
    case postFeed
    /// json-server 0.17 (what jsonplaceholder.typicode.com runs): `_page`/`_limit`, a bare
    /// array body, `X-Total-Count`, an RFC 8288 `Link` header; past the last page an empty
    /// array with `200` and no links.
    case jsonServer017
    /// json-server 1.x: `_page`/`_per_page`, body
    /// `{"first":1,"prev":null,"next":2,"last":L,"pages":P,"items":T,"data":[…]}`; a page past
    /// the end is clamped to the last page; ids are strings (json-server 1.x normalises them).
    case jsonServerV1
    /// DummyJSON: `limit`/`skip` (defaults 30/0, `limit=0` means all), body
    /// `{"posts":[…],"total":T,"skip":S,"limit":L}` where `limit` is the number returned.
    case dummyJSON
    /// WordPress REST API v2, recorded (`Fixtures/apis/wordpress/`).
    case wordpress
    /// Mastodon, recorded (`Fixtures/apis/mastodon/`).
    case mastodon
    /// Hacker News through Algolia, recorded (`Fixtures/apis/hackernews/`).
    case hackernews
    /// Reddit, recorded (`Fixtures/apis/reddit/`).
    case reddit
    /// Ghost Content API, recorded (`Fixtures/apis/ghost/`).
    case ghost
    /// Lemmy API v3, recorded (`Fixtures/apis/lemmy/`).
    case lemmy
    /// Discourse, recorded (`Fixtures/apis/discourse/`).
    case discourse
    /// Forem (dev.to), recorded (`Fixtures/apis/forem/`).
    case forem

    /// The folder under `Fixtures/apis/` whose recorded responses this flavor serves;
    /// `nil` for the flavors that compute their answers.
    public var recordedAPI: String? {
        switch self {
        case .postFeed, .jsonServer017, .jsonServerV1, .dummyJSON: nil
        case .wordpress, .mastodon, .hackernews, .reddit, .ghost, .lemmy, .discourse, .forem: rawValue
        }
    }

    /// What follows the server's root in the base URL a client of the recordings uses: the
    /// subreddit for Reddit (`/r/postfeed`), the Content API key for Ghost (`/?key=…`);
    /// empty for the others.
    public var recordedBaseURLSuffix: String {
        switch self {
        case .reddit: "/r/postfeed"
        case .ghost: "/?key=22444f78447824223cefc48062"
        default: ""
        }
    }
}
