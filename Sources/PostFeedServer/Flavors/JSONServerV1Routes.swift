import Hummingbird
import NIOCore
import PostFeedModels

/// json-server 1.x (`src/app.ts`, `src/service.ts`, `src/paginate.ts`):
///
/// - `_start`, `_end`, `_limit`, `_page`, `_per_page` go through `parseInt`; NaN values are
///   dropped. With `_start`: `slice(_start, _end)` or `slice(_start, _start + (_limit || 0))`;
///   else with `_limit`: `slice(0, _limit)`; else with a non-zero `_page`:
///   `{"first":1,"prev":…,"next":…,"last":L,"pages":P,"items":T,"data":[…]}` where `_per_page`
///   defaults to 10 (non-positive → 1), `pages` is at least 1 and the page is clamped into
///   `1…pages` (a page past the end answers the last page, `200`).
/// - Ids are strings (json-server 1.x normalises numeric ids on load).
/// - No `X-Total-Count`, no `Link`, no `ETag`.
/// - `GET /posts/{id}` → the item, or `404` with the text `Not Found`.
///
/// Not emulated: filters (`?userId=1`, `_gt`…), `_sort`, `_embed`, writes.
struct JSONServerV1Routes {
    let items: [JSONValue]

    init(items: [JSONValue]) {
        // json-server 1.x turns numeric ids into strings when it loads the database.
        self.items = items.map { item in
            if case .number(let text)? = item["id"] { return item.setting("id", to: .string(text)) }
            return item
        }
    }

    func register(on router: Router<FixtureRequestContext>) {
        router.get("/posts") { request, _ in list(request) }
        router.get("/posts/:id") { _, context in show(context) }
    }

    private func list(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        func number(_ name: Substring) -> Int? { JavaScript.parseInt(query[name].map(String.init)) }
        let start = number("_start")
        let end = number("_end")
        let limit = number("_limit")
        let page = number("_page")
        let perPage = number("_per_page")
        let body: JSONValue
        if let start {
            body = .array(end.map { JavaScript.slice(items, start, $0) } ?? JavaScript.slice(items, start, start + (limit ?? 0)))
        } else if let limit {
            body = .array(JavaScript.slice(items, 0, limit))
        } else if let page, page != 0 {
            body = Self.paginate(items, page: page, perPage: perPage.flatMap { $0 == 0 ? nil : $0 } ?? 10)
        } else {
            body = .array(JavaScript.slice(items, nil, end))
        }
        return Self.json(body)
    }

    private func show(_ context: FixtureRequestContext) -> Response {
        let id = context.parameters.get("id") ?? ""
        guard let item = items.first(where: { JSONServer017Routes.idText($0) == id }) else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "Not Found")))
        }
        return Self.json(item)
    }

    /// `paginate` of json-server 1.x.
    static func paginate(_ items: [JSONValue], page: Int, perPage: Int) -> JSONValue {
        let safePerPage = perPage > 0 ? perPage : 1
        let pages = max(1, (items.count + safePerPage - 1) / safePerPage)
        let current = max(1, min(page, pages))
        let start = (current - 1) * safePerPage
        let data = JavaScript.slice(items, start, start + safePerPage)
        func int(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        return .object([
            ("first", int(1)),
            ("prev", int(current > 1 ? current - 1 : nil)),
            ("next", int(current < pages ? current + 1 : nil)),
            ("last", int(pages)),
            ("pages", int(pages)),
            ("items", int(items.count)),
            ("data", .array(data)),
        ])
    }

    private static func json(_ value: JSONValue) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .accessControlAllowOrigin: "*"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized(pretty: true))))
    }
}
