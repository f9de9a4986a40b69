import Foundation
import Hummingbird

/// Builds a cacheable `200`, or `304 Not Modified` when the request's validators match.
///
/// Every cacheable response carries a strong `ETag` (a hash of the body) and
/// `Cache-Control: public, max-age=…`; a `304` repeats those and any extra headers
/// (`Link`, `X-Total-Count`, `Last-Modified`) but has no body.
enum CacheableResponse {
    static func make(
        for request: Request,
        body: ByteBuffer,
        contentType: String,
        maxAge: Int,
        lastModified: Date? = nil,
        etag precomputed: EntityTag? = nil,
        headers extra: HTTPFields = [:]
    ) -> Response {
        let etag = precomputed ?? EntityTag(strongHashOf: body)
        var headers = extra
        headers[.eTag] = etag.description
        // A negative max-age sends no Cache-Control at all: a server that says nothing of
        // freshness, left to the client's heuristic.
        if maxAge >= 0 { headers[.cacheControl] = "public, max-age=\(maxAge)" }
        if let lastModified { headers[.lastModified] = HTTPDate.format(lastModified) }
        let notModified = ConditionalRequest.isNotModified(
            ifNoneMatch: request.headers[values: .ifNoneMatch],
            ifModifiedSince: request.headers[.ifModifiedSince],
            etag: etag, lastModified: lastModified)
        if notModified {
            var response = Response(status: .notModified, headers: headers)
            // A 304 has no body; a `Content-Length: 0` would misstate the representation's size.
            response.headers[.contentLength] = nil
            return response
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
