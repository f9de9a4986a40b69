import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `Accept-Encoding` and transparent decoding.
    @Suite struct CompressionTests {
        @Test func aGzippedBodyIsDecoded() async throws {
            // Given nginx compressing a ~230 KB text on the fly
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/gzip/lorem.txt")

            let response = try await withTestClient { try await $0.get(nginx.url(path)) }

            // Then the wire carried gzip, and the body is the original text
            #expect(response.headers["Content-Encoding"] == "gzip")
            #expect(response.body == TestFiles.lorem)
            let sent = try #require(await nginx.logLines(containing: path).first?.bytesSent)
            #expect(sent < TestFiles.lorem.count / 10)
        }

        @Test func withoutAcceptEncodingTheBodyComesPlain() async throws {
            let nginx = try currentNginx()

            let response = try await withTestClient({ $0.acceptEncoding = false }) {
                try await $0.get(nginx.url("/gzip/lorem.txt"))
            }

            #expect(response.headers["Content-Encoding"] == nil)
            #expect(response.body == TestFiles.lorem)
        }

        @Test func aGzippedDownloadIsDecodedOnDisk() async throws {
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }

            let download = try await withTestClient {
                try await $0.download(HTTPRequest(url: nginx.url("/gzip/lorem.txt")), into: folder)
            }

            #expect(try Data(contentsOf: download.fileURL) == TestFiles.lorem)
            #expect(download.byteCount == TestFiles.lorem.count)
        }
    }
}
