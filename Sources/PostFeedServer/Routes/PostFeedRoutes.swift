import Hummingbird
import NIOCore
import PostFeedModels
import Synchronization

/// PostFeed's own API over `Fixtures/` (DESIGN.md, "The backend API"):
/// `GET /api/posts?page=&limit=`, `GET /api/posts?cursor=&limit=`, `GET /api/posts/{id}`.
struct PostFeedRoutes {
    let state: FixtureServerState

    func register(on router: Router<FixtureRequestContext>) {
        router.get("/api/posts") { request, _ in try listPosts(request) }
        router.get("/api/posts/:id") { request, context in try showPost(request, context: context) }
    }

    /// How this server writes post ids.
    private var served: ServedPostIDs { state.configuration.postIDs }

    /// `value` as JSON, ids served as numbers written as numbers.
    private func encode(_ value: some Encodable) -> ByteBuffer {
        let body = JSONBody.encode(value)
        guard served != .numbers else { return body }
        return ByteBuffer(bytes: served.numbersWritten(in: Array(body.readableBytesView)))
    }

    private func listPosts(_ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        let query = try PostFeedPageQuery.parse { parameters[Substring($0)].map(String.init) }
        let quirks = state.configuration.quirks
        var page = try PostFeedPage.make(query: query, posts: state.posts.posts)
        if quirks.ignoresPageSize {
            page.response.posts = RepeatedPosts.first(quirks.servedPostCount, of: state.posts.posts)
        } else if quirks.repeatsFirstPage {
            var first = query
            first.position = .page(1)
            page.response.posts = try PostFeedPage.make(query: first, posts: state.posts.posts).response.posts
        }
        page.response.posts = served.served(state.revisions.applied(to: page.response.posts))
        let base = RequestURL(request: request, fallbackAuthority: state.boundAuthority.withLock { $0 })
        var link = LinkHeader()
        for relation in page.links {
            // A self-linking next points at the page asked for, query as it came.
            let target = quirks.selfLinkingNext && relation.rel == "next"
                ? base.url(path: "/api/posts", query: parameters.map { (String($0.key), String($0.value)) })
                : base.url(path: "/api/posts", query: relation.query)
            link.append(rel: relation.rel, url: target)
        }
        var headers: HTTPFields = [:]
        headers[.xTotalCount] = String(page.response.total)
        if !quirks.omitsLinkHeader { headers[.link] = link.value }
        return CacheableResponse.make(
            for: request, body: encode(page.response),
            contentType: "application/json; charset=utf-8",
            maxAge: state.configuration.pageMaxAge, headers: headers)
    }

    private func showPost(_ request: Request, context: FixtureRequestContext) throws -> Response {
        let text = context.parameters.get("id") ?? ""
        // Integer ids are all this server has in `numbers`; in `strings` any text is an id.
        if served == .numbers, Int(text) == nil {
            throw APIError.badRequest("post id '\(text.prefix(80))' is not a whole number")
        }
        guard let id = Int(text).map({ PostID($0) }) ?? PostID(text) else {
            throw APIError.badRequest("post id '\(text.prefix(80))' is not a post id")
        }
        guard let fixtureID = served.fixtureID(ofServed: id.text),
              let post = state.posts.post(id: fixtureID).map(state.revisions.applied(to:))
        else {
            throw APIError.notFound("post \(id.shown) does not exist")
        }
        return CacheableResponse.make(
            for: request, body: encode(served.served([post])[0]), contentType: "application/json; charset=utf-8",
            maxAge: state.configuration.pageMaxAge)
    }
}
