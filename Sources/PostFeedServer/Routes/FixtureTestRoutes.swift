/// The `/test/…` routes, served when ``FixtureServerConfiguration/enablesTestRoutes`` is on
/// (off by default). Like httpbin, they give the HTTP client's tests one exact behaviour each.
/// Injected faults never apply to them. All answer `GET` (and `HEAD`); `/test/status` and
/// `/test/headers` also answer `POST`, `PUT`, `PATCH` and `DELETE`; `/test/revise` answers
/// only `POST` and `PUT` (it changes what the server serves). A bad parameter gives
/// `400` with an `APIErrorBody`.
///
/// | route | behaviour |
/// |---|---|
/// | `/test/status/{code}[?retryAfter=S]` | answers `code` (200…599); `Retry-After: S` when given. Body: `APIErrorBody` for ≥ 400, `{"status":code}` otherwise, none for 204/304 |
/// | `/test/redirect/{n}` | `n` (0…50) `302`s, each `Location: /test/redirect/{n-1}` (relative), then `200` `ok` (text/plain) |
/// | `/test/redirect-to?url=U[&status=302]` | one redirect (301/302/303/307/308) to `U` verbatim, any scheme (e.g. `file:///etc/passwd`) |
/// | `/test/bytes/{n}` | `n` bytes (0…256 MiB) of ``bytePattern(count:)``, `Content-Length: n`, `application/octet-stream` |
/// | `/test/delay/{ms}` | waits `ms` (0…600000) then `200` `{"delayedMs":ms}` |
/// | `/test/stall[?ms=M]` | headers with `Content-Length: 65536`, 16 bytes of ``bytePattern(count:)``, then nothing for `M` ms (default 600000) with the connection open, then closes |
/// | `/test/stall-first?key=K[&fail=N][&ms=M]` | `GET`, `POST` or `PUT`: the first `N` (default 1) requests for key `K` stall as `/test/stall?ms=M` does, later ones `200` `{"key":K,"attempt":n}`; counts are per server, shared with `/test/flaky` |
/// | `/test/truncate[?length=N&sent=K]` | `Content-Length: N` (default 1000), sends `K` < `N` bytes (default `N/2`) of ``bytePattern(count:)``, then closes |
/// | `/test/reset` | resets the connection (TCP RST) without any response |
/// | `/test/gzip` | with `Accept-Encoding: gzip`: `Content-Encoding: gzip` body (stored deflate blocks) decoding to JSON `{"gzipped":true,"lines":[…]}`; without: the same JSON uncompressed with `"gzipped":false`. Always `Vary: Accept-Encoding` |
/// | `/test/headers` | `200` JSON `{"method":…,"path":…,"query":…,"headers":{name: value}}` (`query` is `null` without one), names lower-cased, repeats joined with `, `; `Host` included |
/// | `/test/etag[?version=V][&maxAge=N][&bare304=1]` | body `etag test body, version V\n` (default V = 1), strong `ETag`, `Last-Modified: Wed, 01 May 2024 10:00:00 GMT`, `Cache-Control: public, max-age=N` (default 0); `304` on a matching `If-None-Match` (lists, `*`, weak compare) or `If-Modified-Since`, repeating those headers, or with `bare304=1` only the `ETag` |
/// | `/test/bare-image/{name}` | the catalog's image `name` (`img-001.jpg`) with its `Content-Type` and no caching header at all: no `Cache-Control`, `Expires`, `ETag` or `Last-Modified` (as httpbin's `/image/png` answers); `404` for an unknown name |
/// | `/test/requests` | `200` JSON `{"total":N,"pages":P,"images":I,"byPath":{path: count},"recent":["path?query",…]}`: the requests received so far, `/test/…` ones left out (`pages`: `/api/posts…`, `images`: `/images/…`) |
/// | `/test/revise?ids=1,5-8` | `POST`/`PUT`: revises those posts of PostFeed's API (ids and ranges `first-last`): each title starts with its revision, `(revision N) `, N counting that post's revisions, so the pages and post holding them change body and `ETag` (a conditional request gets `200`, the other pages still `304`); `200` `{"revisions":{"1":1,…}}` |
/// | `/test/flaky?key=K[&fail=N][&status=S][&retryAfter=R]` | the first `N` (default 1) requests for key `K` answer `S` (default 503, optional `Retry-After: R`), later ones `200` `{"key":K,"attempt":n}`; counts are per server |
public enum FixtureTestRoutes {
    /// The deterministic bytes `/test/bytes`, `/test/truncate` and `/test/stall` send:
    /// byte `i` is `i % 251` (a prime, so the pattern never lines up with buffer sizes).
    public static func bytePattern(count: Int) -> [UInt8] {
        (0..<max(0, count)).map { UInt8($0 % 251) }
    }

    /// The `Last-Modified` date of `/test/etag`.
    public static let etagLastModified = "Wed, 01 May 2024 10:00:00 GMT"
}
