import Hummingbird
import NIOCore

// MARK: Connection-level test routes: stall, truncate, reset

extension TestRoutes {
    func registerConnectionRoutes(on router: Router<FixtureRequestContext>) {
        router.get("/test/stall") { request, _ in try stall(request) }
        for method: HTTPRequest.Method in [.get, .post, .put] {
            router.on("/test/stall-first", method: method) { request, _ in try stallFirst(request) }
        }
        router.get("/test/truncate") { request, _ in try truncate(request) }
        router.get("/test/reset") { _, context -> Response in try await ConnectionFaults.reset(context.channel) }
    }

    private func stall(_ request: Request) throws -> Response {
        let milliseconds = try Self.integer(
            request.uri.queryParameters["ms"].map(String.init) ?? "600000", name: "ms", in: 0...3_600_000)
        return Self.stalled(for: milliseconds)
    }

    /// Headers with `Content-Length: 65536`, 16 bytes of the pattern, then nothing for
    /// `milliseconds` with the connection open.
    private static func stalled(for milliseconds: Int) -> Response {
        ConnectionFaults.stall(patternResponse(length: 65_536), keptBytes: 16, for: .milliseconds(milliseconds))
    }

    /// The first `fail` requests for `key` stall as `/test/stall` does; later ones answer
    /// `200` `{"key":K,"attempt":n}`. Counts are shared with `/test/flaky`, per key.
    private func stallFirst(_ request: Request) throws -> Response {
        let milliseconds = try Self.integer(
            request.uri.queryParameters["ms"].map(String.init) ?? "600000", name: "ms", in: 0...3_600_000)
        let attempt = try failingAttempt(request, route: "stall-first")
        return attempt.fails ? Self.stalled(for: milliseconds) : attempt.success
    }

    private func truncate(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let length = try Self.integer(query["length"].map(String.init) ?? "1000", name: "length", in: 1...(64 << 20))
        let sent = try Self.integer(
            query["sent"].map(String.init) ?? String(length / 2), name: "sent", in: 0...(length - 1))
        return ConnectionFaults.truncate(Self.patternResponse(length: length), keptBytes: sent)
    }

    private static func patternResponse(length: Int) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/octet-stream"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: FixtureTestRoutes.bytePattern(count: length))))
    }
}
