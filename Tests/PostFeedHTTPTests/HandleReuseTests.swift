import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// The engine keeps a finished transfer's easy handle and, for a GET like the one
    /// before, only changes its URL, context and headers. Nothing of one request may carry
    /// over to the next: with one connection, every request below runs on the same handle.
    @Suite struct HandleReuseTests {
        private func oneHandle(_ configuration: inout HTTPClient.Configuration) {
            configuration.maximumConnections = 1
            configuration.maximumConnectionsPerHost = 1
        }

        @Test func aGetAfterAPostWithHeadersAndABodyIsAPlainGet() async throws {
            let nginx = try currentNginx()
            try await withTestClient(oneHandle) { client in
                var post = HTTPRequest(method: .post, url: nginx.url("/echo"), body: Data("abc".utf8))
                post.headers["X-PostFeed-Echo"] = "first"
                let first = try await client.execute(post)
                #expect(String(decoding: first.body, as: UTF8.self) == "POST first 3\n")

                let second = try await client.get(nginx.url("/echo"))

                // No method, header or body of the POST is left on the handle
                #expect(String(decoding: second.body, as: UTF8.self) == "GET  \n")
            }
        }

        @Test func aGetAfterAHeadHasItsBody() async throws {
            let nginx = try currentNginx()
            try await withTestClient(oneHandle) { client in
                let head = try await client.execute(HTTPRequest(method: .head, url: nginx.url("/files/hello.txt")))
                #expect(head.status == 200)
                #expect(head.body.isEmpty)

                let get = try await client.get(nginx.url("/files/hello.txt"))

                #expect(get.body == TestFiles.hello)
            }
        }

        @Test func aRequestsOwnBodyLimitAppliesToItAlone() async throws {
            let nginx = try currentNginx()
            try await withTestClient(oneHandle) { client in
                var limited = HTTPRequest(url: nginx.url("/files/100k.bin"))
                limited.maximumBodySize = 1000
                await expectHTTPError(.bodyTooLarge) { try await client.execute(limited) }

                let unlimited = try await client.get(nginx.url("/files/100k.bin"))

                #expect(unlimited.body.count == 100 * 1024)
            }
        }

        @Test func aGetAfterAGetWithHeadersSendsOnlyItsOwn() async throws {
            let nginx = try currentNginx()
            try await withTestClient(oneHandle) { client in
                var tagged = HTTPRequest(url: nginx.url("/echo"))
                tagged.headers["X-PostFeed-Echo"] = "tagged"
                let first = try await client.execute(tagged)
                #expect(String(decoding: first.body, as: UTF8.self) == "GET tagged \n")

                let second = try await client.get(nginx.url("/echo"))

                #expect(String(decoding: second.body, as: UTF8.self) == "GET  \n")
                #expect(second.metrics.reusedConnection)
            }
        }
    }
}
