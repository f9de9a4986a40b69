import Hummingbird

extension TestRoutes {
    /// `GET /test/requests`: the requests this server received so far, for benchmarks and
    /// scripts that run `postfeed serve --test-routes` in another process and need to know
    /// what a client fetched. `/test/…` requests themselves are left out of `pages`,
    /// `images` and `total`, so reading the counts does not change them.
    ///
    /// `{"total":N,"pages":P,"images":I,"byPath":{"/api/posts":P,…}}`: `pages` counts
    /// `/api/posts` and `/api/posts/{id}`, `images` everything under `/images/`.
    func requestCounts() -> Response {
        struct Counts: Encodable {
            let total: Int
            let pages: Int
            let images: Int
            let byPath: [String: Int]
        }
        let byPath = state.requestLog.countsByPath.filter { !$0.key.hasPrefix("/test/") }
        let counts = Counts(
            total: byPath.values.reduce(0, +),
            pages: byPath.reduce(0) { $0 + ($1.key.hasPrefix("/api/posts") ? $1.value : 0) },
            images: byPath.reduce(0) { $0 + ($1.key.hasPrefix("/images/") ? $1.value : 0) },
            byPath: byPath)
        return JSONBody.response(body: JSONBody.encode(counts))
    }
}
