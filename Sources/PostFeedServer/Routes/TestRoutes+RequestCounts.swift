import Hummingbird

extension TestRoutes {
    /// `GET /test/requests`: the requests this server received so far, for benchmarks and
    /// scripts that run `postfeed serve --test-routes` in another process and need to know
    /// what a client fetched. `/test/…` requests themselves are left out of `pages`,
    /// `images` and `total`, so reading the counts does not change them.
    ///
    /// `{"total":N,"pages":P,"images":I,"byPath":{"/api/posts":P,…},"recent":[…]}`: `pages`
    /// counts `/api/posts` and `/api/posts/{id}`, `images` everything under `/images/`;
    /// `recent` lists the latest requests (up to ``RequestLog/capacity``, oldest first) as
    /// `path?query`, to tell page 2 from page 3 or one image from another.
    func requestCounts() -> Response {
        struct Counts: Encodable {
            let total: Int
            let pages: Int
            let images: Int
            let byPath: [String: Int]
            let recent: [String]
        }
        let byPath = state.requestLog.countsByPath.filter { !$0.key.hasPrefix("/test/") }
        let counts = Counts(
            total: byPath.values.reduce(0, +),
            pages: byPath.reduce(0) { $0 + ($1.key.hasPrefix("/api/posts") ? $1.value : 0) },
            images: byPath.reduce(0) { $0 + ($1.key.hasPrefix("/images/") ? $1.value : 0) },
            byPath: byPath,
            recent: state.requestLog.recent.filter { !$0.path.hasPrefix("/test/") }.map { request in
                request.query.map { "\(request.path)?\($0)" } ?? request.path
            })
        return JSONBody.response(body: JSONBody.encode(counts))
    }
}
