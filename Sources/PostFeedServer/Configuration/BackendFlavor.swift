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
}
