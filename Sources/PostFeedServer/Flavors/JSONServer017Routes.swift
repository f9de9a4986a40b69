import Foundation
import Hummingbird
import PostFeedModels
import Synchronization

/// json-server 0.17 (`lib/server/router/plural.js`), as JSONPlaceholder runs it:
///
/// - `GET /posts` → the whole array. With `_page`: `getPage` slices
///   `[(page-1)*limit, page*limit)` (`_limit` defaults to 10; a non-numeric or `< 1` page is 1)
///   and sends `Link` with first/prev/next/last built by replacing `page=<current>` in the
///   request's full URL. Past the last page: `200`, `[]`, and an empty `Link`. Without
///   `_page`: `_start`/`_end` or `_start`/`_limit` slice the array.
/// - `X-Total-Count` (and `Access-Control-Expose-Headers: X-Total-Count[, Link]`) whenever
///   `_page`, `_limit` or `_end` is present.
/// - `GET /posts/{id}` → the item, or `404` with `{}`.
/// - Express's weak `ETag`, `Cache-Control: no-cache`, bodies indented by two spaces.
///
/// Not emulated: filters (`?userId=1`), `q`, `_sort`, `_embed`, writes.
struct JSONServer017Routes {
    let state: FixtureServerState
    let items: [JSONValue]

    func register(on router: Router<FixtureRequestContext>) {
        router.get("/posts") { request, _ in list(request) }
        router.get("/posts/:id") { request, context in show(request, context) }
    }

    private func noCacheHeaders() -> HTTPFields {
        [
            .cacheControl: "no-cache", .pragma: "no-cache", .expires: "-1",
            .accessControlAllowCredentials: "true", .vary: "Origin, Accept-Encoding",
        ]
    }

    private func list(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        func truthy(_ name: Substring) -> String? {
            guard let value = query[name], !value.isEmpty else { return nil }
            return String(value)
        }
        var headers = noCacheHeaders()
        let page = truthy("_page")
        if truthy("_end") != nil || truthy("_limit") != nil || page != nil {
            headers[.xTotalCount] = String(items.count)
            headers[.accessControlExposeHeaders] = "X-Total-Count" + (page != nil ? ", Link" : "")
        }
        var result = items
        if let page {
            var pageNumber = JavaScript.parseInt(page) ?? 1
            if pageNumber < 1 { pageNumber = 1 }
            var limit = JavaScript.parseInt(truthy("_limit")) ?? 10
            if limit == 0 { limit = 10 }
            let slice = Self.getPage(items, page: pageNumber, perPage: limit)
            let base = RequestURL(request: request, fallbackAuthority: state.boundAuthority.withLock { $0 })
            let fullURL = base.origin + (request.head.path ?? request.uri.path)
            let current = slice.current.map(String.init) ?? "undefined"
            var link = LinkHeader()
            for (rel, target) in [("first", slice.first), ("prev", slice.prev), ("next", slice.next), ("last", slice.last)] {
                guard let target else { continue }
                link.append(rel: rel, url: Self.replaceFirst("page=\(current)", with: "page=\(target)", in: fullURL))
            }
            // Express's res.links({}) still sets the field, to an empty value.
            headers[.link] = link.value
            result = slice.items
        } else if let end = truthy("_end") {
            let start = JavaScript.parseInt(truthy("_start")) ?? 0
            result = JavaScript.parseInt(end).map { JavaScript.slice(items, start, $0) } ?? []
        } else if let limit = truthy("_limit") {
            let start = JavaScript.parseInt(truthy("_start")) ?? 0
            result = JavaScript.parseInt(limit).map { JavaScript.slice(items, start, start + $0) } ?? []
        }
        return ExpressResponse.json(.array(result), pretty: true, request: request, headers: headers)
    }

    private func show(_ request: Request, _ context: FixtureRequestContext) -> Response {
        let id = context.parameters.get("id") ?? ""
        guard let item = items.first(where: { Self.idText($0) == id }) else {
            return ExpressResponse.json(.object([]), status: .notFound, pretty: true, request: request, headers: noCacheHeaders())
        }
        return ExpressResponse.json(item, pretty: true, request: request, headers: noCacheHeaders())
    }

    /// `utils.getPage` of json-server 0.17.
    struct PageSlice {
        var items: [JSONValue]
        var current: Int?
        var first: Int?
        var prev: Int?
        var next: Int?
        var last: Int?
    }

    static func getPage(_ array: [JSONValue], page: Int, perPage: Int) -> PageSlice {
        let start = (page - 1) &* perPage
        let end = page &* perPage
        var slice = PageSlice(items: JavaScript.slice(array, start, end))
        guard !slice.items.isEmpty else { return slice }
        if page > 1 { slice.prev = page - 1 }
        if end < array.count { slice.next = page + 1 }
        if slice.items.count != array.count {
            slice.current = page
            slice.first = 1
            slice.last = Int((Double(array.count) / Double(perPage)).rounded(.up))
        }
        return slice
    }

    static func replaceFirst(_ target: String, with replacement: String, in text: String) -> String {
        guard let range = text.range(of: target) else { return text }
        return text.replacingCharacters(in: range, with: replacement)
    }

    /// An item's id as JavaScript's `String(id)` would print it.
    static func idText(_ item: JSONValue) -> String? {
        switch item["id"] {
        case .number(let text)?: return text
        case .string(let text)?: return text
        default: return nil
        }
    }
}
