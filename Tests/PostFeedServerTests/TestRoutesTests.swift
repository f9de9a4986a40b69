import SuiteSupport
import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("/test routes")
struct TestRoutesTests {
    @Test("they are off unless enabled")
    func offByDefault() async throws {
        try await withFixtureServer { _, client throws in
            #expect(try await client.get("/test/status/200").status == 404)
        }
    }

    @Test("/test/status/{code} answers that code", arguments: [200, 201, 204, 304, 400, 404, 429, 500, 503])
    func status(code: Int) async throws {
        try await withTestRoutes { _, client throws in
            let response = try await client.get("/test/status/\(code)")
            #expect(response.status == code)
            if code >= 400 {
                #expect(try response.decode(APIErrorBody.self).error.status == code)
            } else if code == 204 || code == 304 {
                #expect(response.body.isEmpty)
            } else {
                #expect(response.text == "{\"status\":\(code)}")
            }
        }
    }

    @Test("/test/status adds Retry-After when asked, for any method")
    func statusRetryAfter() async throws {
        try await withTestRoutes { _, client throws in
            let response = try await client.request("POST", "/test/status/429?retryAfter=2")
            #expect(response.status == 429)
            #expect(response.header("Retry-After") == "2")
            #expect(try await client.get("/test/status/503").header("Retry-After") == nil)
        }
    }

    @Test("/test/status rejects codes outside 200…599", arguments: ["99", "100", "600", "abc"])
    func statusBadCode(code: String) async throws {
        try await withTestRoutes { _, client throws in
            #expect(try await client.get("/test/status/\(code)").status == 400)
        }
    }

    @Test("/test/redirect/{n} is a chain of n relative 302s ending at 200 ok")
    func redirectChain() async throws {
        try await withTestRoutes { server, client throws in
            var target = "/test/redirect/3"
            var hops = 0
            var response = try await client.get(target)
            while response.status == 302, hops < 10 {
                target = try #require(response.header("Location"))
                hops += 1
                response = try await client.get(target)
            }
            #expect(hops == 3)
            #expect(target == "/test/redirect/0")
            #expect(response.status == 200)
            #expect(response.text == "ok")
            #expect(server.requestCount(pathPrefix: "/test/redirect/") == 4)
        }
    }

    @Test("/test/redirect-to redirects anywhere, with the chosen status")
    func redirectTo() async throws {
        try await withTestRoutes { _, client throws in
            let file = try await client.get("/test/redirect-to?url=file%3A%2F%2F%2Fetc%2Fpasswd")
            #expect(file.status == 302)
            #expect(file.header("Location") == "file:///etc/passwd")
            let permanent = try await client.get("/test/redirect-to?url=http%3A%2F%2Fexample.com%2F&status=308")
            #expect(permanent.status == 308)
            #expect(permanent.header("Location") == "http://example.com/")
            #expect(try await client.get("/test/redirect-to").status == 400)
            #expect(try await client.get("/test/redirect-to?url=x&status=305").status == 400)
        }
    }

    @Test("/test/bytes/{n} sends n deterministic bytes with Content-Length", arguments: [0, 1, 1000, 300_000])
    func bytes(count: Int) async throws {
        try await withTestRoutes { _, client throws in
            let response = try await client.get("/test/bytes/\(count)")
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == String(count))
            #expect(response.body == FixtureTestRoutes.bytePattern(count: count))
        }
    }

    @Test("/test/delay/{ms} answers after at least that long")
    func delay() async throws {
        try await withTestRoutes { _, client throws in
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await client.get("/test/delay/250")
            #expect(clock.now - start >= .milliseconds(250))
            #expect(response.text == "{\"delayedMs\":250}")
            #expect(try await client.get("/test/delay/-1").status == 400)
        }
    }

    @Test("/test/stall sends headers and a few bytes, then nothing while the connection stays open")
    func stall() async throws {
        try await withTestRoutes { _, client throws in
            let outcome = await client.send("GET", "/test/stall", timeout: .seconds(2))
            let incomplete = try #require(outcome.incomplete)
            #expect(incomplete.ending == .timedOut)
            #expect(incomplete.head?.status == 200)
            #expect(incomplete.head?.header("Content-Length") == "65536")
            #expect(incomplete.received == FixtureTestRoutes.bytePattern(count: 16))
        }
    }

    @Test("/test/stall?ms= closes the connection when the stall ends")
    func stallEnds() async throws {
        try await withTestRoutes { _, client throws in
            let incomplete = await client.send("GET", "/test/stall?ms=100", timeout: .seconds(5)).incomplete
            #expect(incomplete?.ending == .closed)
        }
    }

    @Test("/test/truncate promises a Content-Length and closes early")
    func truncate() async throws {
        try await withTestRoutes { _, client throws in
            let defaults = try #require(await client.send("GET", "/test/truncate").incomplete)
            #expect(defaults.ending == .closed)
            #expect(defaults.head?.header("Content-Length") == "1000")
            #expect(defaults.received == FixtureTestRoutes.bytePattern(count: 500))
            let custom = try #require(await client.send("GET", "/test/truncate?length=5000&sent=10").incomplete)
            #expect(custom.head?.header("Content-Length") == "5000")
            #expect(custom.received.count == 10)
            #expect(try await client.get("/test/truncate?length=10&sent=10").status == 400)
        }
    }

    @Test("/test/reset resets the connection without a response")
    func reset() async throws {
        try await withTestRoutes { server, client throws in
            let incomplete = try #require(await client.send("GET", "/test/reset").incomplete)
            #expect(incomplete.ending == .reset)
            #expect(incomplete.head == nil)
            #expect(incomplete.received.isEmpty)
            #expect(server.requestCount(path: "/test/reset") == 1)
        }
    }

    @Test("/test/gzip is gzip-encoded only when the client accepts gzip")
    func gzip() async throws {
        try await withTestRoutes { _, client throws in
            let plain = try await client.get("/test/gzip")
            #expect(plain.header("Content-Encoding") == nil)
            #expect(plain.header("Vary") == "Accept-Encoding")
            #expect(plain.text.contains("\"gzipped\":false"))

            let refused = try await client.get("/test/gzip", headers: [("Accept-Encoding", "gzip;q=0, br")])
            #expect(refused.header("Content-Encoding") == nil)

            let zipped = try await client.get("/test/gzip", headers: [("Accept-Encoding", "deflate, gzip")])
            #expect(zipped.header("Content-Encoding") == "gzip")
            #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B])
            let decoded = try gunzip(zipped.body)
            let text = String(decoding: decoded, as: UTF8.self)
            #expect(text.contains("\"gzipped\":true"))
            #expect(text.contains("line 99 of the gzip test body"))
        }
    }

    @Test("/test/headers echoes the request's headers with lower-cased names")
    func headers() async throws {
        try await withTestRoutes { server, client throws in
            let response = try await client.request(
                "PUT", "/test/headers?a=1", headers: [("X-Custom", "one"), ("X-Custom", "two"), ("User-Agent", "probe/1")])
            let object = try #require(try response.jsonObject() as? [String: Any])
            let headers = try #require(object["headers"] as? [String: String])
            #expect(object["method"] as? String == "PUT")
            #expect(object["path"] as? String == "/test/headers")
            #expect(object["query"] as? String == "a=1")
            #expect(headers["x-custom"] == "one, two")
            #expect(headers["user-agent"] == "probe/1")
            #expect(headers["host"] == "127.0.0.1:\(server.port)")
            let noQuery = try #require(try await client.get("/test/headers").jsonObject() as? [String: Any])
            #expect(noQuery["query"] is NSNull)
        }
    }

    @Test("/test/etag supports ETag and Last-Modified revalidation; a new version changes the tag")
    func etag() async throws {
        try await withTestRoutes { _, client throws in
            let first = try await client.get("/test/etag")
            let etag = try #require(first.header("ETag"))
            #expect(first.text == "etag test body, version 1\n")
            #expect(first.header("Last-Modified") == FixtureTestRoutes.etagLastModified)
            #expect(try await client.get("/test/etag", headers: [("If-None-Match", etag)]).status == 304)
            #expect(try await client.get("/test/etag", headers: [("If-None-Match", "W/\(etag)")]).status == 304)
            #expect(try await client.get("/test/etag", headers: [("If-None-Match", "\"a\", \(etag)")]).status == 304)
            #expect(
                try await client.get("/test/etag", headers: [("If-Modified-Since", FixtureTestRoutes.etagLastModified)]).status == 304)
            let changed = try await client.get("/test/etag?version=2", headers: [("If-None-Match", etag)])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != etag)
        }
    }

    @Test("/test/flaky fails the first N requests per key, then succeeds")
    func flaky() async throws {
        try await withTestRoutes { _, client throws in
            let first = try await client.get("/test/flaky?key=a&fail=2&status=500&retryAfter=1")
            let second = try await client.get("/test/flaky?key=a&fail=2&status=500")
            let third = try await client.get("/test/flaky?key=a&fail=2&status=500")
            let otherKey = try await client.get("/test/flaky?key=b&fail=1")
            #expect(first.status == 500)
            #expect(first.header("Retry-After") == "1")
            #expect(second.status == 500)
            #expect(third.status == 200)
            #expect(third.text == "{\"attempt\":3,\"key\":\"a\"}")
            #expect(otherKey.status == 503)
            #expect(try await client.get("/test/flaky").status == 400)
        }
    }

    @Test("/test/requests counts pages and images received, leaving out /test/ requests")
    func requestCounts() async throws {
        struct Counts: Decodable {
            let total: Int
            let pages: Int
            let images: Int
            let byPath: [String: Int]
            let recent: [String]
        }
        try await withTestRoutes { _, client throws in
            let before = try await client.get("/test/requests").decode(Counts.self)
            #expect(before.total == 0 && before.pages == 0 && before.images == 0)
            _ = try await client.get("/api/posts?page=1&limit=5")
            _ = try await client.get("/api/posts?page=2&limit=5")
            _ = try await client.get("/api/posts/3")
            _ = try await client.get("/images/img-001.jpg")
            _ = try await client.get("/test/status/200")
            let after = try await client.get("/test/requests").decode(Counts.self)
            #expect(after.pages == 3)
            #expect(after.images == 1)
            #expect(after.total == 4)
            #expect(after.byPath["/api/posts"] == 2)
            let countsNoTestRoute = after.byPath.keys.allSatisfy { !$0.hasPrefix("/test/") }
            #expect(countsNoTestRoute, "\(after.byPath.keys.sorted())")
            #expect(after.recent == [
                "/api/posts?page=1&limit=5", "/api/posts?page=2&limit=5", "/api/posts/3", "/images/img-001.jpg",
            ])
        }
    }
}

/// Decodes gzip with the system's `gzip -d`, an implementation independent of the server's.
private func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(bytes))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw RawHTTPError(description: "gzip -d failed with status \(process.terminationStatus)")
    }
    return Array(data)
}
