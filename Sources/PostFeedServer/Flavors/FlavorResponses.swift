import Hummingbird
import NIOCore
import PostFeedModels

/// Responses shaped like an Express app's (json-server 0.17, DummyJSON): JSON bodies with a
/// weak `ETag` and `304` on a matching `If-None-Match`, as Express's `res.send` does.
enum ExpressResponse {
    static func json(
        _ value: JSONValue, status: HTTPResponse.Status = .ok, pretty: Bool, request: Request,
        headers extra: HTTPFields = [:]
    ) -> Response {
        let body = ByteBuffer(string: value.serialized(pretty: pretty))
        var headers = extra
        headers[.xPoweredBy] = "Express"
        headers[.accessControlAllowOrigin] = request.headers[.origin] ?? "*"
        headers[.contentType] = "application/json; charset=utf-8"
        guard status == .ok else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        // Express: W/"<length hex>-<hash>", compared weakly against If-None-Match.
        let hash = EntityTag(strongHashOf: body).opaque.prefix(27)
        let etag = EntityTag(opaque: String(body.readableBytes, radix: 16) + "-" + hash, isWeak: true)
        headers[.eTag] = etag.description
        let notModified = ConditionalRequest.isNotModified(
            ifNoneMatch: request.headers[values: .ifNoneMatch], ifModifiedSince: nil, etag: etag,
            lastModified: nil)
        if notModified {
            var response = Response(status: .notModified, headers: headers)
            response.headers[.contentLength] = nil
            response.headers[.contentType] = nil
            return response
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
