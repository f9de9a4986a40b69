import Foundation
import PostFeedHTTP
import PostFeedServer
import Testing

/// Tests against the fixture server's `/test/…` routes: the behaviours nginx cannot give
/// (503 then success, resets, truncated and stalled bodies) and a second opinion on others.
@Suite(.fixtureServer)
struct FixtureServerTests {
    /// A client that retries up to `attempts` times on `clock` with full jitter.
    func retrying(_ configuration: inout HTTPClient.Configuration, clock: RecordingClock, attempts: Int = 3) {
        configuration.clock = clock
        configuration.retryPolicy = RetryPolicy(
            maximumAttempts: attempts, baseDelay: .milliseconds(100), maximumRetryAfter: .seconds(300),
            random: { 1 })
    }

    // MARK: Retries

    @Test func a503ThenSuccessIsRetriedToSuccess() async throws {
        // Given a URL that fails twice with 503, then succeeds
        let server = try currentFixtureServer()
        let key = UUID().uuidString
        let clock = RecordingClock()

        // When a client with 3 attempts fetches it
        let response = try await withTestClient({ retrying(&$0, clock: clock) }) {
            try await $0.get(server.url("/test/flaky?key=\(key)&fail=2"))
        }

        // Then the third attempt's success comes back, after two backoffs of 100 and 200 ms
        #expect(response.status == 200)
        #expect(response.metrics.attempt == 3)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
        #expect(server.requests(withQueryContaining: key).count == 3)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"attempt\":3"))
    }

    @Test func retryAfterSecondsFromTheServerIsWaited() async throws {
        let server = try currentFixtureServer()
        let key = UUID().uuidString
        let clock = RecordingClock()

        let response = try await withTestClient({ retrying(&$0, clock: clock) }) {
            try await $0.get(server.url("/test/flaky?key=\(key)&fail=1&retryAfter=7"))
        }

        #expect(response.status == 200)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test func retryAfterAnHTTPDateTwoMinutesAheadIsWaited() async throws {
        // Given a 503 whose Retry-After is a date two minutes from now (1 s resolution)
        let server = try currentFixtureServer()
        let clock = RecordingClock()
        let date = HTTPDate.format(Date().addingTimeInterval(120))
        let query = date.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""

        let response = try await withTestClient({ retrying(&$0, clock: clock, attempts: 2) }) {
            try await $0.get(server.url("/test/status/503?retryAfter=\(query)"))
        }

        // Then the one wait is those two minutes, less the second the date format drops
        // and the moments the request took
        let sleep = try #require(clock.sleeps.first)
        #expect(clock.sleeps.count == 1)
        #expect(sleep <= .seconds(120))
        #expect(sleep > .seconds(110))
        #expect(response.status == 503)
        #expect(response.metrics.attempt == 2)
    }

    @Test func givingUpReturnsTheLastResponse() async throws {
        // Given a URL that fails more often than the client tries
        let server = try currentFixtureServer()
        let key = UUID().uuidString
        let clock = RecordingClock()

        let response = try await withTestClient({ retrying(&$0, clock: clock) }) {
            try await $0.get(server.url("/test/flaky?key=\(key)&fail=10"))
        }

        // Then the third 503 is the answer, a response and not an error
        #expect(response.status == 503)
        #expect(response.metrics.attempt == 3)
        #expect(server.requests(withQueryContaining: key).count == 3)
        #expect(String(decoding: response.body, as: UTF8.self).contains("attempt 3"))
    }

    @Test(arguments: [HTTPMethod.post, .get])
    func a404AndAPOSTAreAskedOnce(method: HTTPMethod) async throws {
        // Given a 404 for GET, a 503 for POST
        let server = try currentFixtureServer()
        let key = UUID().uuidString
        let clock = RecordingClock()
        let code = method == .post ? 503 : 404
        let request = HTTPRequest(method: method, url: server.url("/test/status/\(code)?key=\(key)"))

        let response = try await withTestClient({ retrying(&$0, clock: clock) }) { try await $0.execute(request) }

        #expect(response.status == code)
        #expect(clock.sleeps.isEmpty)
        #expect(server.requests(withQueryContaining: key).map(\.method) == [method.rawValue])
    }

    @Test func aResetConnectionIsRetriedThenThrownAsConnectionLost() async throws {
        let server = try currentFixtureServer()
        let clock = RecordingClock()
        let before = server.requestCount(path: "/test/reset")

        let error = await expectHTTPError(.connectionLost) {
            try await withTestClient({ retrying(&$0, clock: clock) }) {
                try await $0.get(server.url("/test/reset"))
            }
        }

        #expect(error?.isTransient == true)
        #expect(clock.sleeps.count == 2)
        #expect(server.requestCount(path: "/test/reset") - before == 3)
    }

    // MARK: Broken bodies

    @Test func aTruncatedBodyIsAnErrorNeverAShortSuccess() async throws {
        // Given Content-Length: 100000 and only 5000 bytes before the connection closes
        let server = try currentFixtureServer()
        let url = server.url("/test/truncate?length=100000&sent=5000")

        let error = await expectHTTPError(.truncatedBody) {
            try await withTestClient { try await $0.get(url) }
        }

        #expect(error?.url == url)
    }

    @Test func aTruncatedDownloadLeavesNoFile() async throws {
        let server = try currentFixtureServer()
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        await expectHTTPError(.truncatedBody) {
            try await withTestClient {
                try await $0.download(HTTPRequest(url: server.url("/test/truncate?length=100000&sent=5000")), into: folder)
            }
        }

        #expect(contents(of: folder).isEmpty)
    }

    @Test func aStalledBodyHitsTheStallTimeout() async throws {
        // Given 16 bytes of a promised 64 KiB, then 30 s of silence
        let server = try currentFixtureServer()

        let error = await expectHTTPError(.timedOut) {
            try await withTestClient({
                $0.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(1))
            }) { try await $0.get(server.url("/test/stall?ms=30000")) }
        }

        #expect(error?.timeout == .stall)
    }

    @Test func aSlowAnswerHitsTheTotalTimeout() async throws {
        let server = try currentFixtureServer()
        var request = HTTPRequest(url: server.url("/test/delay/20000"))
        request.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(1), stall: .seconds(30))

        let error = await expectHTTPError(.timedOut) { try await withTestClient { try await $0.execute(request) } }

        #expect(error?.timeout == .total)
    }

    @Test func cancellingAWaitingRequestThrowsCancelled() async throws {
        let server = try currentFixtureServer()
        try await withTestClient { client in
            let task = Task { try await client.get(server.url("/test/delay/30000")) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            await expectHTTPError(.cancelled) { try await task.value }
            #expect(try await client.get(server.url("/test/status/200")).status == 200)
        }
    }

    // MARK: Bodies, headers, validators

    @Test func bytesArriveInOrder() async throws {
        let server = try currentFixtureServer()

        let response = try await withTestClient { try await $0.get(server.url("/test/bytes/300000")) }

        #expect(Array(response.body) == FixtureTestRoutes.bytePattern(count: 300_000))
    }

    @Test func bytesOverTheLimitAreRefused() async throws {
        let server = try currentFixtureServer()

        await expectHTTPError(.bodyTooLarge) {
            try await withTestClient({ $0.maximumBodySize = 100_000 }) {
                try await $0.get(server.url("/test/bytes/300000"))
            }
        }
    }

    @Test func theClientSendsItsHeaders() async throws {
        let server = try currentFixtureServer()
        var request = HTTPRequest(url: server.url("/test/headers"))
        request.headers["X-Request-Tag"] = "fixture"

        let response = try await withTestClient { try await $0.execute(request) }

        let echo = try JSONDecoder().decode(HeaderEcho.self, from: response.body)
        #expect(echo.headers["x-request-tag"] == "fixture")
        #expect(echo.headers["user-agent"] == "PostFeed/1.0")
        #expect(echo.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func gzipIsDecoded() async throws {
        let server = try currentFixtureServer()

        let response = try await withTestClient { try await $0.get(server.url("/test/gzip")) }

        #expect(response.headers["Content-Encoding"] == "gzip")
        let payload = try JSONDecoder().decode(GzipPayload.self, from: response.body)
        #expect(payload.gzipped)
        #expect(payload.lines.count == 100)
    }

    @Test func anETagRevalidatesTo304() async throws {
        let server = try currentFixtureServer()
        try await withTestClient { client in
            let first = try await client.get(server.url("/test/etag?version=3"))
            var request = HTTPRequest(url: server.url("/test/etag?version=3"))
            request.addValidators(etag: first.headers["ETag"], lastModified: nil)

            let second = try await client.execute(request)

            #expect(first.status == 200)
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(try second.requireSuccess().isNotModified)
        }
    }

    /// A redirect to a name that does not resolve fails that request alone: the requests
    /// waiting for the same origin (named, so its first request looked it up) go on. They
    /// failed with "the name localhost did not resolve" when any failure to resolve failed
    /// the origin's waiters.
    @Test func aRedirectToANameThatDoesNotResolveFailsOnlyItsRequest() async throws {
        let server = try currentFixtureServer()
        let port = try #require(server.baseURL.port)
        let gone = try #require(URL(string: "http://localhost:\(port)/test/redirect-to?url=http://gone.invalid/x"))
        let fine = try #require(URL(string: "http://localhost:\(port)/test/redirect/0"))
        try await withTestClient({ $0.maximumConnectionsPerHost = 1 }) { client in
            // The redirected request first; two more wait behind it (one connection per host)
            let redirected = Task { await expectHTTPError(.cannotResolve) { try await client.get(gone) } }
            try await Task.sleep(for: .milliseconds(20))
            let others = (0..<2).map { _ in Task { try await client.get(fine) } }

            let error = await redirected.value
            #expect(error?.detail == "gone.invalid", "\(String(describing: error))")
            for other in others {
                let response = try await other.value
                #expect(response.body == Data("ok".utf8))
            }
        }
    }

    @Test func redirectsFollowStopAtTheLimitAndRefuseFile() async throws {
        let server = try currentFixtureServer()
        try await withTestClient { client in
            let followed = try await client.get(server.url("/test/redirect/3"))
            #expect(followed.body == Data("ok".utf8))
            #expect(followed.metrics.redirectCount == 3)

            await expectHTTPError(.tooManyRedirects) { try await client.get(server.url("/test/redirect/6")) }

            let error = await expectHTTPError(.unsupportedScheme) {
                try await client.get(server.url("/test/redirect-to?url=file:///etc/passwd"))
            }
            #expect(error?.description.contains("root:") == false)
        }
    }
}

/// `/test/headers`' body.
private struct HeaderEcho: Decodable {
    var method: String
    var headers: [String: String]
}

/// `/test/gzip`'s body.
private struct GzipPayload: Decodable {
    var gzipped: Bool
    var lines: [String]
}
