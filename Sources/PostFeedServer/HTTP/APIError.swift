import Foundation
import Hummingbird
import PostFeedModels

/// An error answer in PostFeed's API: the status and an ``APIErrorBody``
/// (`{"error":{"status":404,"message":"…"}}`), never cached.
struct APIError: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, message: message) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    func makeResponse() -> Response {
        var headers = headers
        headers[.cacheControl] = "no-store"
        return JSONBody.response(
            status: status, body: JSONBody.encode(APIErrorBody(status: status.code, message: message)),
            headers: headers)
    }
}

/// Turns any `HTTPError` that Hummingbird raises itself (unknown route, wrong method, …) into
/// PostFeed's ``APIErrorBody`` shape, so every error the server sends looks the same.
struct ErrorBodyMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let message = error.body ?? "\(request.method) \(request.uri.path): \(error.status.reasonPhrase)"
            var apiError = APIError(status: error.status, message: message)
            apiError.headers = error.headers
            apiError.headers[.contentType] = nil
            apiError.headers[.contentLength] = nil
            return apiError.makeResponse()
        }
    }
}

/// JSON encoding shared by the routes: sorted keys (stable bytes, so stable ETags) and
/// unescaped slashes (`/images/a.png`, not `\/images\/a.png`).
enum JSONBody {
    static func encode(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return ByteBuffer(bytes: try encoder.encode(value))
        } catch {
            // Our models always encode; keep a valid body if that ever changes.
            return ByteBuffer(string: #"{"error":{"status":500,"message":"encoding failed"}}"#)
        }
    }

    static func response(
        status: HTTPResponse.Status = .ok, body: ByteBuffer, headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
