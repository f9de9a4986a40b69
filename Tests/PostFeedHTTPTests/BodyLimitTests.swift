import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `maximumBodySize`, whether the server announces the length or not.
    @Suite struct BodyLimitTests {
        @Test func aDeclaredLengthOverTheLimitFails() async throws {
            // Given a 1 MiB file with Content-Length and a 100 KiB limit
            let nginx = try currentNginx()
            let url = nginx.url("/files/1m.bin")

            let error = await expectHTTPError(.bodyTooLarge) {
                try await withTestClient({ $0.maximumBodySize = 100 * 1024 }) { try await $0.get(url) }
            }

            #expect(error?.url == url)
            #expect(error?.detail == "100 KiB")
        }

        @Test func theMessageGivesTheLimitInBinaryUnitsWithoutAdviceNoOptionCanFollow() async throws {
            // Given a 1 MiB file and the limit 100 KiB
            let nginx = try currentNginx()
            let url = nginx.url("/files/1m.bin")

            let error = await expectHTTPError(.bodyTooLarge) {
                try await withTestClient({ $0.maximumBodySize = 100 * 1024 }) { try await $0.get(url) }
            }

            // Then the message says 100 KiB, not 102400 bytes, and asks nothing of the reader
            let reason = try #require(error?.reason)
            #expect(reason.contains("larger than the 100 KiB limit"), "\(reason)")
            #expect(!reason.contains("raise the limit"), "\(reason)")
        }

        @Test func aChunkedBodyOverTheLimitFailsWhileStreaming() async throws {
            // Given gzip on the fly (chunked, no Content-Length) decoding to ~230 KB
            let nginx = try currentNginx()
            var request = HTTPRequest(url: nginx.url("/gzip/lorem.txt"))
            request.maximumBodySize = 50 * 1024

            let response = await expectHTTPError(.bodyTooLarge) {
                try await withTestClient { try await $0.execute(request) }
            }

            #expect(response != nil)
        }

        @Test func aBodyExactlyAtTheLimitPasses() async throws {
            let nginx = try currentNginx()
            var request = HTTPRequest(url: nginx.url("/files/1k.bin"))
            request.maximumBodySize = 1024

            let response = try await withTestClient { try await $0.execute(request) }

            #expect(response.body.count == 1024)
        }

        @Test func thePerRequestLimitOverridesTheClients() async throws {
            // Given a client limit of 1 KiB and a request that allows 200 KiB
            let nginx = try currentNginx()
            var request = HTTPRequest(url: nginx.url("/files/100k.bin"))
            request.maximumBodySize = 200 * 1024

            let response = try await withTestClient({ $0.maximumBodySize = 1024 }) { try await $0.execute(request) }

            #expect(response.body == TestFiles.binary(named: "100k.bin"))
        }
    }
}
