import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Redirect chains, the redirect limit, and the scheme allow-list on redirects.
    @Suite struct RedirectTests {
        @Test func followsAChainWithinTheLimit() async throws {
            // Given /r7 → /r8 → /r9 → /r10 → /files/hello.txt (4 redirects, limit 5)
            let nginx = try currentNginx()

            let response = try await withTestClient { try await $0.get(nginx.url("/r7")) }

            // Then the final file arrives, and the response says where from
            #expect(response.status == 200)
            #expect(response.body == TestFiles.hello)
            #expect(response.requestURL == nginx.url("/r7"))
            #expect(response.url == nginx.url("/files/hello.txt"))
            #expect(response.metrics.redirectCount == 4)
        }

        @Test func aChainOverTheLimitFailsWithTooManyRedirects() async throws {
            // Given /r1 → … → /r10 → file: 10 redirects against a limit of 5
            let nginx = try currentNginx()
            let url = nginx.url("/r1")

            let error = await expectHTTPError(.tooManyRedirects) {
                try await withTestClient { try await $0.get(url) }
            }

            #expect(error?.url == url)
        }

        @Test func withRedirectsOffThe302IsTheResponse() async throws {
            let nginx = try currentNginx()

            let response = try await withTestClient({ $0.maximumRedirects = 0 }) {
                try await $0.get(nginx.url("/r1"))
            }

            #expect(response.status == 302)
            #expect(response.headers["Location"]?.hasSuffix("/r2") == true)
        }

        @Test func aRedirectToFileIsRefusedAndReadsNothing() async throws {
            // Given a 302 to file:///etc/passwd
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }

            // When it is fetched into memory and as a download
            let error = await expectHTTPError(.unsupportedScheme) {
                try await withTestClient { try await $0.get(nginx.url("/to-file")) }
            }
            await expectHTTPError(.unsupportedScheme) {
                try await withTestClient {
                    try await $0.download(HTTPRequest(url: nginx.url("/to-file")), into: folder)
                }
            }

            // Then neither the error nor the download folder holds a byte of the file
            #expect(error?.description.contains("root:") == false)
            #expect(error?.detail?.contains("file://") == true)
            #expect(contents(of: folder).isEmpty)
        }

        @Test(arguments: ["/to-gopher", "/to-dict"])
        func redirectsToOtherSchemesAreRefused(path: String) async throws {
            let nginx = try currentNginx()

            await expectHTTPError(.unsupportedScheme) {
                try await withTestClient { try await $0.get(nginx.url(path)) }
            }
        }
    }
}
