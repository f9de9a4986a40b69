import Foundation
import Hummingbird
import NIOCore

/// The `/test/…` routes documented on ``FixtureTestRoutes``.
struct TestRoutes {
    let state: FixtureServerState

    func register(on router: Router<FixtureRequestContext>) {
        let anyMethod: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        for method in anyMethod {
            router.on("/test/status/:code", method: method) { request, context in try status(request, context) }
            router.on("/test/headers", method: method) { request, _ in headers(request) }
        }
        router.get("/test/redirect/:n") { _, context in try redirect(context) }
        router.get("/test/redirect-to") { request, _ in try redirectTo(request) }
        router.get("/test/bytes/:n") { _, context in try bytes(context) }
        router.get("/test/delay/:ms") { _, context in try await delay(context) }
        router.get("/test/gzip") { request, _ in gzip(request) }
        router.get("/test/etag") { request, _ in try etag(request) }
        router.get("/test/bare-image/:name") { _, context in try bareImage(context) }
        router.get("/test/flaky") { request, _ in try flaky(request) }
        router.get("/test/requests") { _, _ in requestCounts() }
        registerConnectionRoutes(on: router)
        registerRevisionRoutes(on: router)
    }

    // MARK: Status and redirects

    private func status(_ request: Request, _ context: FixtureRequestContext) throws -> Response {
        let code = try Self.integer(context.parameters.get("code"), name: "code", in: 200...599)
        var headers: HTTPFields = [:]
        if let retryAfter = request.uri.queryParameters["retryAfter"] {
            headers[.retryAfter] = String(retryAfter)
        }
        let status = HTTPResponse.Status(code: code)
        if code == 204 || code == 304 {
            return Response(status: status, headers: headers)
        }
        if code >= 400 {
            var error = APIError(status: status, message: "status \(code) as requested")
            error.headers = headers
            return error.makeResponse()
        }
        return JSONBody.response(status: status, body: JSONBody.encode(["status": code]), headers: headers)
    }

    private func redirect(_ context: FixtureRequestContext) throws -> Response {
        let remaining = try Self.integer(context.parameters.get("n"), name: "n", in: 0...50)
        guard remaining > 0 else {
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
        }
        return Response(status: .found, headers: [.location: "/test/redirect/\(remaining - 1)"])
    }

    private func redirectTo(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        guard let target = query["url"].map(String.init), !target.isEmpty else {
            throw APIError.badRequest("redirect-to needs ?url=<target>")
        }
        let code = try Self.integer(query["status"].map(String.init) ?? "302", name: "status", in: 301...308)
        guard [301, 302, 303, 307, 308].contains(code) else {
            throw APIError.badRequest("status \(code) is not a redirect; use 301, 302, 303, 307 or 308")
        }
        return Response(status: HTTPResponse.Status(code: code), headers: [.location: target])
    }

    // MARK: Bodies

    private func bytes(_ context: FixtureRequestContext) throws -> Response {
        let count = try Self.integer(context.parameters.get("n"), name: "n", in: 0...(256 << 20))
        let body = ResponseBody(contentLength: count) { writer in
            let chunkSize = 64 * 1024
            var offset = 0
            while offset < count {
                let length = min(chunkSize, count - offset)
                var buffer = ByteBuffer()
                buffer.reserveCapacity(length)
                for index in offset..<(offset + length) { buffer.writeInteger(UInt8(index % 251)) }
                try await writer.write(buffer)
                offset += length
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }

    private func delay(_ context: FixtureRequestContext) async throws -> Response {
        let milliseconds = try Self.integer(context.parameters.get("ms"), name: "ms", in: 0...600_000)
        try await Task.sleep(for: .milliseconds(milliseconds))
        return JSONBody.response(body: JSONBody.encode(["delayedMs": milliseconds]))
    }

    private func gzip(_ request: Request) -> Response {
        let accepts = Self.acceptsGzip(request.headers[values: .acceptEncoding])
        struct Payload: Encodable {
            let gzipped: Bool
            let lines: [String]
        }
        let lines = (0..<100).map { "line \($0) of the gzip test body" }
        let json = JSONBody.encode(Payload(gzipped: accepts, lines: lines))
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .vary: "Accept-Encoding"]
        guard accepts else { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: json)) }
        headers[.contentEncoding] = "gzip"
        let encoded = Gzip.encode(Array(json.readableBytesView))
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded)))
    }

    /// Whether an `Accept-Encoding` field allows gzip (`gzip`, `x-gzip` or `*` with q > 0).
    static func acceptsGzip(_ values: [String]) -> Bool {
        for member in values.flatMap({ $0.split(separator: ",") }) {
            let parts = member.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, ["gzip", "x-gzip", "*"].contains(coding) else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }

    private func headers(_ request: Request) -> Response {
        struct Echo: Encodable {
            let method: String
            let path: String
            let query: String?
            let headers: [String: String]

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(method, forKey: .method)
                try container.encode(path, forKey: .path)
                try container.encode(query, forKey: .query)  // null when absent
                try container.encode(headers, forKey: .headers)
            }

            enum CodingKeys: String, CodingKey { case method, path, query, headers }
        }
        let echo = Echo(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query,
            headers: Self.lowercasedHeaders(request))
        return JSONBody.response(body: JSONBody.encode(echo))
    }

    private func etag(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let version = query["version"].map(String.init) ?? "1"
        let maxAge = try Self.integer(query["maxAge"].map(String.init) ?? "0", name: "maxAge", in: 0...31_536_000)
        let body = ByteBuffer(string: "etag test body, version \(version)\n")
        var response = CacheableResponse.make(
            for: request, body: body, contentType: "text/plain; charset=utf-8", maxAge: maxAge,
            lastModified: HTTPDate.parse(FixtureTestRoutes.etagLastModified))
        if response.status == .notModified, query["bare304"] == "1" {
            // A 304 that repeats only the validators, as some servers send: the client must
            // keep the stored Cache-Control (RFC 9111 §4.3.4).
            response.headers[.cacheControl] = nil
            response.headers[.lastModified] = nil
        }
        return response
    }

    /// An image of the catalog as many origins send one (httpbin's `/image/png`): its bytes
    /// and `Content-Type`, and no `Cache-Control`, `Expires`, `ETag` or `Last-Modified`.
    private func bareImage(_ context: FixtureRequestContext) throws -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let image = state.images.image(named: name) else {
            throw APIError.notFound("image '\(name)' does not exist")
        }
        var headers = HTTPFields()
        headers[.contentType] = image.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: image.bytes))
    }

    private func flaky(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let code = try Self.integer(query["status"].map(String.init) ?? "503", name: "status", in: 400...599)
        let attempt = try failingAttempt(request, route: "flaky")
        guard attempt.fails else { return attempt.success }
        var error = APIError(
            status: HTTPResponse.Status(code: code),
            message: "flaky '\(attempt.key)': attempt \(attempt.number) of \(attempt.failures) failing")
        if let retryAfter = query["retryAfter"] { error.headers[.retryAfter] = String(retryAfter) }
        return error.makeResponse()
    }

    /// One request to `/test/flaky` or `/test/stall-first`: its number for `?key=` (counts
    /// shared by both routes, per server), whether it is among the first `?fail=` (default
    /// 1) that fail, and the `200` `{"key":K,"attempt":n}` the others get.
    struct FailingAttempt {
        var key: String
        var number: Int
        var failures: Int
        var fails: Bool { number <= failures }

        var success: Response {
            struct Success: Encodable {
                let key: String
                let attempt: Int
            }
            return JSONBody.response(body: JSONBody.encode(Success(key: key, attempt: number)))
        }
    }

    func failingAttempt(_ request: Request, route: String) throws -> FailingAttempt {
        let query = request.uri.queryParameters
        guard let key = query["key"].map(String.init), !key.isEmpty else {
            throw APIError.badRequest("\(route) needs ?key=<name> so separate tests do not share a counter")
        }
        let failures = try Self.integer(query["fail"].map(String.init) ?? "1", name: "fail", in: 0...1_000_000)
        return FailingAttempt(key: key, number: state.nextFlakyAttempt(key: key), failures: failures)
    }

    // MARK: Helpers

    static func lowercasedHeaders(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            result[name] = result[name].map { $0 + ", " + field.value } ?? field.value
        }
        if let authority = request.head.authority, result["host"] == nil { result["host"] = authority }
        return result
    }

    /// A whole number in `range`, or a `400` naming the parameter.
    static func integer(_ text: String?, name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let text, let value = Int(text) else {
            throw APIError.badRequest("\(name) '\(text ?? "")' is not a whole number")
        }
        guard range.contains(value) else {
            throw APIError.badRequest("\(name) \(value) is out of range; use \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}
