import Foundation
import PostFeedServer
import Testing

/// `--proxy URL` and the proxy variables (issue 18, "Through a proxy"), against nginx on
/// loopback: as a caching reverse proxy in front of the fixture server, and as a forward
/// proxy for `http://` URLs.
@Suite("Through a proxy")
struct ProxyTests {
    /// Runs `body` with a fixture server and an nginx proxying it, both stopped afterwards.
    private func withProxy(_ body: (RunningFixtureServer, ProxyNginx) async throws -> Void) async throws {
        try await withFixtureServer { server in
            let nginx = try ProxyNginx.start(origin: server.baseURL)
            defer { nginx.stop() }
            try await body(server, nginx)
        }
    }

    @Test("a second client with a fresh cache root is served by the caching proxy: the origin sees no new request")
    func cachingReverseProxy() async throws {
        try await withProxy { server, nginx in
            let first = try Sandbox()
            let warm = try await first.run(["page", "1", "--no-images", "--base-url", nginx.cachingURL])
            #expect(warm.succeeded, "\(warm)")
            let originRequests = server.requestCount(path: "/api/posts")
            #expect(originRequests >= 1)

            let second = try Sandbox()
            let served = try await second.run(["page", "1", "--no-images", "--base-url", nginx.cachingURL])
            #expect(served.succeeded, "\(served)")
            #expect(served.standardOutput == warm.standardOutput)
            #expect(server.requestCount(path: "/api/posts") == originRequests, "the proxy passed the second client's requests on")
            let cachingRequests = nginx.cachingRequests()
            let servedAHit = cachingRequests.contains { $0.contains("/api/posts") && $0.hasSuffix(" HIT") }
            #expect(servedAHit, "\(cachingRequests)")
        }
    }

    @Test("--proxy sends the requests through a forward proxy, and wins over HTTP_PROXY")
    func forwardProxy() async throws {
        try await withProxy { server, nginx in
            let sandbox = try Sandbox()
            let run = try await sandbox.run(
                ["page", "1", "--no-images", "--proxy", nginx.forwardProxyURL], against: server,
                environment: ["HTTP_PROXY": "http://127.0.0.1:1"])
            #expect(run.succeeded, "\(run)")
            let forwardedRequests = nginx.forwardedRequests()
            let forwardedAList = forwardedRequests.contains { $0.hasPrefix("GET /api/posts?") && $0.hasSuffix(" 200") }
            #expect(forwardedAList, "\(forwardedRequests)")
            #expect(server.requestCount(path: "/api/posts") >= 1)
        }
    }

    @Test("HTTP_PROXY is honoured, NO_PROXY exempts a host, and --proxy \"\" goes direct")
    func environmentVariables() async throws {
        try await withProxy { server, nginx in
            let sandbox = try Sandbox()
            let viaVariable = try await sandbox.run(
                ["page", "1", "--no-images"], against: server, environment: ["HTTP_PROXY": nginx.forwardProxyURL])
            #expect(viaVariable.succeeded, "\(viaVariable)")
            let forwarded = nginx.forwardedRequests().count
            #expect(forwarded >= 1)

            let dead = ["HTTP_PROXY": "http://127.0.0.1:1"]
            let refused = try await Sandbox().run(["page", "1", "--no-images"], against: server, environment: dead)
            #expect(refused.failed, "\(refused)")
            #expect(refused.errorMessage?.contains("the proxy http://127.0.0.1:1 failed") == true, "\(refused)")

            let exempt = try await Sandbox().run(
                ["page", "1", "--no-images"], against: server, environment: dead.merging(["NO_PROXY": "127.0.0.1"]) { $1 })
            #expect(exempt.succeeded, "\(exempt)")
            let direct = try await Sandbox().run(["page", "1", "--no-images", "--proxy", ""], against: server, environment: dead)
            #expect(direct.succeeded, "\(direct)")
            #expect(nginx.forwardedRequests().count == forwarded)
        }
    }

    @Test("credentials in the proxy URL appear nowhere: not in --verbose, not in errors")
    func credentialsNeverShown() async throws {
        try await withProxy { server, nginx in
            let secretProxy = nginx.forwardProxyURL.replacingOccurrences(of: "http://", with: "http://reader:s3cr3t-pw@")
            let run = try await Sandbox().run(["page", "1", "--no-images", "--verbose", "--proxy", secretProxy], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.contains("through the proxy \(nginx.forwardProxyURL)"), "\(run.standardError)")
            #expect(!(run.standardOutput + run.standardError).contains("s3cr3t"), "\(run)")
            #expect(!(run.standardOutput + run.standardError).contains("reader:"), "\(run)")

            let failed = try await Sandbox().run(
                ["page", "1", "--no-images", "--verbose", "--proxy", "http://reader:s3cr3t-pw@127.0.0.1:1"], against: server)
            #expect(failed.failed, "\(failed)")
            #expect(failed.errorMessage?.contains("the proxy http://127.0.0.1:1 failed") == true, "\(failed)")
            let errorLines = failed.errorLines.filter { $0.hasPrefix("Error:") }
            #expect(errorLines.count == 1, "\(failed)")
            #expect(!(failed.standardOutput + failed.standardError).contains("s3cr3t"), "\(failed)")

            let bad = try await Sandbox().run(["page", "1", "--proxy", "ftp://reader:s3cr3t-pw@127.0.0.1:21"], against: server)
            #expect(bad.exitedNormally && bad.status == 64, "\(bad)")
            #expect(!(bad.standardOutput + bad.standardError).contains("s3cr3t"), "\(bad)")
        }
    }
}
