import Foundation
import PostFeedHTTP
import Testing

/// How ``HTTPProxySettings`` reads the proxy variables and matches `NO_PROXY`.
@Suite("HTTPProxySettings")
struct HTTPProxySettingsTests {
    @Test("the scheme's own variable, lower case first, then ALL_PROXY; empty values count as unset")
    func environment() {
        let settings = HTTPProxySettings.environment([
            "HTTP_PROXY": "http://upper:3128", "http_proxy": "http://lower:3128", "ALL_PROXY": "socks5h://all:1080",
            "HTTPS_PROXY": "", "NO_PROXY": "localhost,.internal",
        ])
        #expect(settings.http == "http://lower:3128")
        #expect(settings.https == "socks5h://all:1080")
        #expect(settings.noProxy == "localhost,.internal")
        #expect(HTTPProxySettings.environment(["HTTP_PROXY": "http://upper:3128"]).http == "http://upper:3128")
        #expect(!HTTPProxySettings.environment([:]).usesProxy)
    }

    @Test("an explicit proxy for both schemes; an empty one means none")
    func explicit() {
        let settings = HTTPProxySettings.proxy("http://p:1", noProxy: "a")
        #expect(settings.http == "http://p:1" && settings.https == "http://p:1" && settings.noProxy == "a")
        #expect(!HTTPProxySettings.proxy("").usesProxy)
        #expect(!HTTPProxySettings.direct.usesProxy)
    }

    @Test("NO_PROXY: *, a host, a domain and its subdomains (leading dot or not), never a mere suffix")
    func bypasses() {
        let settings = HTTPProxySettings(http: "http://p:1", noProxy: " localhost, .internal ,example.com,10.0.0.1")
        #expect(settings.bypasses(host: "localhost"))
        #expect(settings.bypasses(host: "api.internal"))
        #expect(settings.bypasses(host: "EXAMPLE.com"))
        #expect(settings.bypasses(host: "cdn.example.com"))
        #expect(settings.bypasses(host: "10.0.0.1"))
        #expect(!settings.bypasses(host: "badexample.com"))
        #expect(!settings.bypasses(host: "127.0.0.1"))
        #expect(HTTPProxySettings(http: "http://p:1", noProxy: "*").bypasses(host: "anything"))
    }

    @Test("a proxy that cannot be reached fails as a proxy failure naming it without credentials; direct ignores the environment")
    func unreachableProxy() async throws {
        var configuration = HTTPClient.Configuration(retryPolicy: .never)
        configuration.proxy = .proxy("http://reader:s3cr3t@127.0.0.1:1")
        let url = try #require(URL(string: "http://127.0.0.1:9/never-reached"))
        try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            do {
                _ = try await client.get(url)
                Issue.record("the request went through a proxy that is not there")
            } catch let error as HTTPClientError {
                #expect(error.code == .proxy)
                #expect(error.description.contains("the proxy http://127.0.0.1:1 failed"), "\(error)")
                #expect(!error.description.contains("s3cr3t"), "\(error)")
            }
        }
        // .direct: the same URL is tried directly (and refused: nothing listens on port 9).
        configuration.proxy = .direct
        try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            do {
                _ = try await client.get(url)
            } catch let error as HTTPClientError {
                #expect(error.code == .cannotConnect, "\(error)")
            }
        }
    }

    @Test("shown without credentials, with the scheme libcurl assumes")
    func displayed() {
        #expect(HTTPProxySettings.displayed("http://me:pw@proxy:3128") == "http://proxy:3128")
        #expect(HTTPProxySettings.displayed("me:pw@proxy:3128") == "http://proxy:3128")
        #expect(!HTTPProxySettings.proxy("http://me:pw@proxy:3128").summary.contains("pw"))
    }
}
