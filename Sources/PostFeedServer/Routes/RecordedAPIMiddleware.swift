import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Answers `GET` requests from ``APIRecordings``: the recorded status, headers and body,
/// `{base}` replaced by the server's origin. A recorded path asked with a query no
/// recording has is `404` with a JSON body naming the request; other paths go on to the
/// router (`/images/…`, the test routes).
struct RecordedAPIMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext
    let recordings: APIRecordings
    let state: FixtureServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        let path = request.uri.path
        guard let recording = recordings.recording(path: path, query: request.uri.query) else {
            guard recordings.knows(path: path) else { return try await next(request, context) }
            let shown = path + (request.uri.query.map { "?" + $0 } ?? "")
            let body = #"{"error":"no recorded response for GET \#(shown.replacingOccurrences(of: "\"", with: "'"))"}"#
            return Response(
                status: .notFound, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        let origin = RequestURL(request: request, fallbackAuthority: state.boundAuthority.withLock { $0 }).origin
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        for header in recording.headers {
            guard let name = HTTPFields.Element.Name(header.name) else { continue }
            headers.append(HTTPFields.Element(name: name, value: header.value.replacingOccurrences(of: "{base}", with: origin)))
        }
        let body = recording.body.replacingOccurrences(of: "{base}", with: origin)
        return Response(
            status: HTTPResponse.Status(code: recording.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
