import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Status, headers and bodies as they come off the wire.
    @Suite struct ResponseTests {
        @Test func statusHeadersAndBodyOfAFile() async throws {
            // Given nginx serving a small text file
            let nginx = try currentNginx()
            let url = nginx.url("/files/hello.txt")

            // When it is fetched
            let response = try await withTestClient { try await $0.get(url) }

            // Then status, headers and body are the file's
            #expect(response.status == 200)
            #expect(response.isSuccess)
            #expect(response.body == TestFiles.hello)
            #expect(response.headers["content-type"] == "text/plain")
            #expect(response.headers["Content-Length"] == String(TestFiles.hello.count))
            #expect(response.headers["ETag"] != nil)
            #expect(response.requestURL == url)
            #expect(response.url == url)
        }

        @Test(arguments: TestFiles.binarySizes.map(\.name))
        func binaryBodyIsByteForByte(name: String) async throws {
            let nginx = try currentNginx()
            let expected = try #require(TestFiles.binary(named: name))

            let response = try await withTestClient { try await $0.get(nginx.url("/files/\(name)")) }

            #expect(response.status == 200)
            #expect(response.body.count == expected.count)
            #expect(response.body == expected)
            #expect(response.metrics.bytesReceived == expected.count)
        }

        @Test func methodHeadersAndBodyReachTheServer() async throws {
            // Given a request with a method, a custom header and a body
            let nginx = try currentNginx()
            var request = HTTPRequest(method: .post, url: nginx.url("/echo"), body: Data("abc".utf8))
            request.headers["X-PostFeed-Echo"] = "hello-from-the-test"

            // When it is sent
            let response = try await withTestClient { try await $0.execute(request) }

            // Then nginx saw all three; its repeated headers arrive in order, UTF-8 intact and
            // trimmed
            #expect(String(decoding: response.body, as: UTF8.self) == "POST hello-from-the-test 3\n")
            #expect(response.headers["x-fixture"] == "nginx")
            #expect(response.headers.values(for: "X-Multi") == ["one", "two"])
            #expect(response.headers["X-Unicode"] == "café ☕")
            #expect(response.headers["X-Padded"] == "spaced out")
        }

        @Test func a404IsAResponseAndRequireSuccessNamesTheURL() async throws {
            // Given a URL nginx answers with 404
            let nginx = try currentNginx()
            let url = nginx.url("/status/404")

            // When it is fetched, a response comes back, not an error
            let response = try await withTestClient { try await $0.get(url) }
            #expect(response.status == 404)
            #expect(!response.isSuccess)
            #expect(String(decoding: response.body, as: UTF8.self) == "no such thing here\n")

            // Then requireSuccess turns it into an error naming the URL and the status
            let error = #expect(throws: HTTPClientError.self) { try response.requireSuccess() }
            #expect(error?.code == .httpStatus)
            #expect(error?.status == 404)
            #expect(error?.url == url)
            #expect(error?.description.contains(url.absoluteString) == true)
            #expect(error?.description.contains("404") == true)
        }

        @Test func headReturnsHeadersWithoutABody() async throws {
            // Given a 1 MiB file and a body limit below its size
            let nginx = try currentNginx()
            var request = HTTPRequest(method: .head, url: nginx.url("/files/1m.bin"))
            request.maximumBodySize = 1024

            // When only its headers are asked for
            let response = try await withTestClient { try await $0.execute(request) }

            // Then they come back, with no body (so no body limit applies)
            #expect(response.status == 200)
            #expect(response.headers["Content-Length"] == String(1024 * 1024))
            #expect(response.body.isEmpty)
        }

        @Test func fileURLIsRefusedBeforeAnyIO() async throws {
            let url = try #require(URL(string: "file:///etc/passwd"))

            let error = await expectHTTPError(.unsupportedScheme) {
                try await withTestClient { try await $0.get(url) }
            }

            #expect(error?.url == url)
        }
    }
}
