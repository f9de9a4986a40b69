import Foundation
import SuiteSupport
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `https://` through proxies, end to end: nginx's TLS port as the origin, a
    /// ``TunnelProxy`` (HTTP `CONNECT` and SOCKS5) between, the client trusting nginx's
    /// self-signed certificate. TLS runs inside the tunnel, so the proxy sees only the
    /// target it was asked for.
    @Suite struct TunnelProxyTests {
        @Test("HTTPS_PROXY tunnels an https:// request with CONNECT; HTTP_PROXY is not used for it")
        func httpsProxyVariableTunnels() async throws {
            // Given HTTPS_PROXY naming the tunnel proxy and HTTP_PROXY naming a dead one
            let nginx = try currentNginx()
            let proxy = try TunnelProxy()
            defer { proxy.stop() }
            let run = UUID().uuidString
            let environment = ["HTTPS_PROXY": proxy.url(), "HTTP_PROXY": "http://127.0.0.1:1"]

            // When an https:// URL is fetched
            let response = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.proxy = .environment(environment)
            }) { client in
                try await client.get(nginx.tlsURL("/files/hello.txt?run=\(run)")).requireSuccess()
            }

            // Then it went through one CONNECT tunnel to nginx's TLS port, and TLS held
            #expect(response.body == TestFiles.hello)
            #expect(response.metrics.tlsHandshake > .zero)
            #expect(proxy.tunnels == [.init(kind: .connect, target: "127.0.0.1:\(nginx.tlsPort)", authorization: nil)])
            let lines = await nginx.logLines(containing: run, log: "tls.log")
            #expect(lines.count == 1)
        }

        @Test("NO_PROXY exempts the origin from HTTPS_PROXY: no tunnel is opened")
        func noProxyExemptsTheHost() async throws {
            let nginx = try currentNginx()
            let proxy = try TunnelProxy()
            defer { proxy.stop() }

            let response = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.proxy = .environment(["https_proxy": proxy.url(), "NO_PROXY": "localhost,127.0.0.1"])
            }) { client in
                try await client.get(nginx.tlsURL("/files/hello.txt")).requireSuccess()
            }

            #expect(response.body == TestFiles.hello)
            #expect(proxy.tunnels.isEmpty)
        }

        @Test("credentials in the proxy URL reach the proxy as Proxy-Authorization on the CONNECT, never the origin")
        func credentialsGoToTheProxy() async throws {
            let nginx = try currentNginx()
            let proxy = try TunnelProxy()
            defer { proxy.stop() }

            let response = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.proxy = .proxy(proxy.url(credentials: "reader:s3cr3t"))
            }) { client in
                try await client.get(nginx.tlsURL("/files/hello.txt")).requireSuccess()
            }

            #expect(response.body == TestFiles.hello)
            let expected = "Basic " + Data("reader:s3cr3t".utf8).base64EncodedString()
            #expect(proxy.tunnels.map(\.authorization) == [expected])
        }

        @Test("a SOCKS5 proxy (socks5h://, socks5://) carries both https:// and http:// requests", arguments: ["socks5h", "socks5"])
        func socksProxy(scheme: String) async throws {
            let nginx = try currentNginx()
            let proxy = try TunnelProxy()
            defer { proxy.stop() }

            let (secure, plain) = try await withTestClient({
                $0.trustedCertificatesFile = nginx.certificateFile.path
                $0.proxy = .proxy(proxy.url(scheme: scheme))
            }) { client in
                (
                    try await client.get(nginx.tlsURL("/files/hello.txt")).requireSuccess(),
                    try await client.get(nginx.url("/files/hello.txt")).requireSuccess()
                )
            }

            #expect(secure.body == TestFiles.hello)
            #expect(plain.body == TestFiles.hello)
            let targets = proxy.tunnels.map(\.target)
            let allSOCKS = proxy.tunnels.allSatisfy { $0.kind == .socks5 }
            #expect(allSOCKS, "\(proxy.tunnels)")
            #expect(targets == ["127.0.0.1:\(nginx.tlsPort)", "127.0.0.1:\(nginx.port)"])
        }

        @Test("a proxy that refuses the tunnel fails as a proxy failure naming the proxy, not as the origin's")
        func refusedTunnelIsAProxyFailure() async throws {
            let nginx = try currentNginx()
            let proxy = try TunnelProxy()
            defer { proxy.stop() }
            // A target nothing listens on: the proxy answers the CONNECT with 502
            let closed = try TestPorts.reserve()
            let url = try #require(URL(string: "https://127.0.0.1:\(closed)/files/hello.txt"))

            let failure = await expectHTTPError(.proxy) {
                try await withTestClient({
                    $0.trustedCertificatesFile = nginx.certificateFile.path
                    $0.proxy = .proxy(proxy.url(credentials: "reader:s3cr3t"))
                }) { client in
                    try await client.get(url)
                }
            }
            let error = try #require(failure)

            #expect(error.description.contains("the proxy http://127.0.0.1:\(proxy.port) failed"), "\(error)")
            #expect(!error.description.contains("s3cr3t"), "\(error)")
        }
    }
}
