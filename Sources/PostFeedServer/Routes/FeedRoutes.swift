import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Feeds over the recorded documents of `Fixtures/feeds/site/`, served by every flavor, so
/// the client reads RSS, Atom and JSON Feed from a real server to their ends:
///
/// | route | document | paged by | past the end |
/// |---|---|---|---|
/// | `GET /feeds/rss/?paged=N` | `rss-pageN.xml`, `application/rss+xml` | WordPress's `?paged=N` | `404` |
/// | `GET /feeds/atom?page=N` | `atom-pageN.xml`, `application/atom+xml` | RFC 5005 `<link rel="next">` in the body | `404` |
/// | `GET /feeds/json?page=N` | `jsonfeed-pageN.json`, `application/json` (the body says it is a JSON Feed) | `next_url` in the body | `404` |
///
/// `{{origin}}` in a document is this server's `http://host:port` as the request reached
/// it, so links, next pages and images point back here. Each answer carries an `ETag` and
/// `Cache-Control` like the API's pages, and `304` on a matching `If-None-Match`.
struct FeedRoutes {
    let state: FixtureServerState

    /// One served feed: where its pages are and how they are asked for.
    struct Served {
        let path: String
        let filePrefix: String
        let fileExtension: String
        let pageParameter: String
        let contentType: String
    }

    static let feeds = [
        Served(path: "/feeds/rss", filePrefix: "rss-page", fileExtension: "xml", pageParameter: "paged",
               contentType: "application/rss+xml; charset=UTF-8"),
        Served(path: "/feeds/atom", filePrefix: "atom-page", fileExtension: "xml", pageParameter: "page",
               contentType: "application/atom+xml; charset=utf-8"),
        Served(path: "/feeds/json", filePrefix: "jsonfeed-page", fileExtension: "json", pageParameter: "page",
               contentType: "application/json; charset=utf-8"),
    ]

    func register(on router: Router<FixtureRequestContext>) {
        for feed in Self.feeds {
            router.get(RouterPath(feed.path)) { request, _ in try page(of: feed, request) }
        }
    }

    /// The folder the documents are read from.
    var folder: URL {
        state.configuration.fixturesDirectory.appendingPathComponent("feeds", isDirectory: true)
            .appendingPathComponent("site", isDirectory: true)
    }

    private func page(of feed: Served, _ request: Request) throws -> Response {
        let text = request.uri.queryParameters[Substring(feed.pageParameter)].map(String.init) ?? "1"
        // WordPress reads a missing, empty or 0 `paged` as the first page.
        guard let number = text.isEmpty ? 1 : Int(text), number >= 0, number < 10_000 else {
            throw APIError.badRequest("\(feed.pageParameter) '\(text.prefix(40))' is not a page number; use 1, 2, …")
        }
        let file = folder.appendingPathComponent("\(feed.filePrefix)\(max(number, 1)).\(feed.fileExtension)")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw APIError.notFound("page \(number) of \(feed.path) does not exist")
        }
        let origin = RequestURL(request: request, fallbackAuthority: state.boundAuthority.withLock { $0 }).origin
        let body = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "{{origin}}", with: origin)
        return CacheableResponse.make(
            for: request, body: ByteBuffer(string: body), contentType: feed.contentType,
            maxAge: state.configuration.pageMaxAge)
    }
}
