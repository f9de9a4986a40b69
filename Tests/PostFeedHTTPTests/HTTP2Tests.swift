import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// HTTPS and HTTP/2 against nginx's TLS port (self-signed certificate, ALPN h2).
    @Suite struct HTTP2Tests {
        @Test func concurrentRequestsToOneHostAreMultiplexedOnOneConnection() async throws {
            // Given a client that trusts nginx's certificate and may open 16 connections
            let nginx = try currentNginx()
            let run = UUID().uuidString
            let expected = try #require(TestFiles.binary(named: "1k.bin"))

            // When 100 requests start at once
            let responses = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.maximumConnectionsPerHost = 16
            }) { client in
                try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                    for index in 0..<100 {
                        let url = nginx.tlsURL("/files/1k.bin?run=\(run)&i=\(index)")
                        group.addTask { try await client.get(url).requireSuccess() }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }

            // Then every body arrived over HTTP/2, as streams of a single TCP connection
            #expect(responses.count == 100)
            let differing = responses.filter { $0.body != expected }.count
            #expect(differing == 0, "\(differing) bodies differ from the file")
            #expect(Set(responses.map(\.metrics.httpVersion)) == ["2"])
            #expect(responses.filter(\.metrics.reusedConnection).count >= 99)
            let lines = await nginx.logLines(containing: run, atLeast: 100, log: "tls.log")
            #expect(lines.count == 100)
            #expect(Set(lines.compactMap(\.protocolName)) == ["HTTP/2.0"])
            #expect(Set(lines.map(\.connection)).count == 1)
        }

        @Test func withHTTP2OffTLSSpeaksHTTP11() async throws {
            let nginx = try currentNginx()
            let run = UUID().uuidString

            let response = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.preferHTTP2 = false
            }) { client in
                try await client.get(nginx.tlsURL("/files/hello.txt?run=\(run)")).requireSuccess()
            }

            #expect(response.body == TestFiles.hello)
            #expect(response.metrics.httpVersion == "1.1")
            #expect(response.metrics.tlsHandshake > .zero)
            let lines = await nginx.logLines(containing: run, log: "tls.log")
            #expect(lines.map(\.protocolName) == ["HTTP/1.1"])
        }

        @Test func anUntrustedCertificateFailsAsTLSNamingTheURL() async throws {
            // Given the system's bundle, which does not know nginx's self-signed certificate
            let nginx = try currentNginx()
            let url = nginx.tlsURL("/files/hello.txt")

            let error = await expectHTTPError(.tls) {
                try await withTestClient { client in try await client.get(url) }
            }

            #expect(error?.url == url)
            #expect(error?.curlCode == 60)  // CURLE_PEER_FAILED_VERIFICATION
            #expect(error?.description.contains(url.absoluteString) == true, "\(String(describing: error))")
        }

        @Test func aMissingCertificateFileFailsAsTLS() async throws {
            let nginx = try currentNginx()
            let missing = "/nonexistent/postfeed-ca-\(UUID().uuidString).pem"

            let error = await expectHTTPError(.tls) {
                try await withTestClient({ $0.trustedCertificatesFile = missing }) { client in
                    try await client.get(nginx.tlsURL("/files/hello.txt"))
                }
            }

            #expect(error?.curlCode == 77)  // CURLE_SSL_CACERT_BADFILE
        }
    }
}
