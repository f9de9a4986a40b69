import Hummingbird
import PostFeedModels

/// DummyJSON (`src/middleware/clean-request.js`, `src/controllers/post.js`):
///
/// - `GET /posts?limit=&skip=&select=`: `limit` defaults to 30 and `skip` to 0; a value that
///   `Number()` rejects, or a negative one, is `400` with
///   `{"message":"Invalid 'limit' - should be a positive number"}`. Then `parseInt`: the first
///   `skip` posts are dropped, and `limit` posts kept — `limit=0` (or more than remain) keeps
///   them all. Body `{"posts":[…],"total":T,"skip":S,"limit":L}` where `L` is how many were
///   returned (so a page past the end is `"posts":[]`, `"limit":0`, `200`).
///   `select=title,body` keeps `id` plus those fields.
/// - `GET /posts/{id}` → the post; `400` `{"message":"Invalid post id 'x'"}` for a
///   non-number; `404` `{"message":"Post with id 'x' not found"}`.
/// - Express's weak `ETag`; compact bodies.
///
/// Not emulated: `sortBy`/`order`, `/posts/search`, `/posts/user/{id}`, writes, `delay`.
struct DummyJSONRoutes {
    let items: [JSONValue]

    func register(on router: Router<FixtureRequestContext>) {
        router.get("/posts") { request, _ in list(request) }
        router.get("/posts/:id") { request, context in show(request, context) }
    }

    private func message(_ text: String, status: HTTPResponse.Status, _ request: Request) -> Response {
        ExpressResponse.json(.object([("message", .string(text))]), status: status, pretty: false, request: request)
    }

    private func list(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        let limitText = query["limit"].map(String.init) ?? "30"
        let skipText = query["skip"].map(String.init) ?? "0"
        for (name, text) in [("limit", limitText), ("skip", skipText)] {
            guard let value = JavaScript.number(text), value >= 0 else {
                return message("Invalid '\(name)' - should be a positive number", status: .badRequest, request)
            }
        }
        let limit = JavaScript.parseInt(limitText)
        let skip = JavaScript.parseInt(skipText)
        var posts = items
        if let skip, skip > 0 { posts = JavaScript.slice(posts, skip, nil) }
        // limitArray: limit === 0 || limit > length → everything; NaN → slice(0, NaN) → nothing.
        if let limit {
            if limit != 0 && limit <= posts.count { posts = Array(posts.prefix(limit)) }
        } else {
            posts = []
        }
        if let select = query["select"], !select.isEmpty {
            let keys = ["id"] + select.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            posts = posts.map { Self.subset($0, keys: keys) }
        }
        let body = JSONValue.object([
            ("posts", .array(posts)),
            ("total", .number(String(items.count))),
            ("skip", skip.map { .number(String($0)) } ?? .null),
            ("limit", .number(String(posts.count))),
        ])
        return ExpressResponse.json(body, pretty: false, request: request)
    }

    private func show(_ request: Request, _ context: FixtureRequestContext) -> Response {
        let id = context.parameters.get("id") ?? ""
        guard JavaScript.number(id) != nil else {
            return message("Invalid post id '\(id)'", status: .badRequest, request)
        }
        guard let post = items.first(where: { JSONServer017Routes.idText($0) == id }) else {
            return message("Post with id '\(id)' not found", status: .notFound, request)
        }
        return ExpressResponse.json(post, pretty: false, request: request)
    }

    /// `getObjectSubset`: the listed keys in order (first occurrence wins), absent ones left out.
    static func subset(_ item: JSONValue, keys: [String]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for key in keys where !members.contains(where: { $0.key == key }) {
            if let value = item[key] { members.append((key, value)) }
        }
        return .object(members)
    }
}
