import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Revalidation: `If-None-Match` / `If-Modified-Since` and the `304` they earn.
    @Suite struct ConditionalRequestTests {
        @Test func aMatchingETagEarnsA304WithNoBody() async throws {
            // Given the ETag of a first, full response
            let nginx = try currentNginx()
            let url = nginx.url("/files/100k.bin")
            try await withTestClient { client in
                let first = try await client.get(url)
                let etag = try #require(first.headers["ETag"])

                // When the same URL is asked for with If-None-Match
                var request = HTTPRequest(url: url)
                request.addValidators(etag: etag, lastModified: nil)
                let second = try await client.execute(request)

                // Then the server says 304, a result and not an error, with no body
                #expect(second.status == 304)
                #expect(second.isNotModified)
                #expect(second.body.isEmpty)
                #expect(throws: Never.self) { try second.requireSuccess() }
            }
        }

        @Test func aStaleETagGetsTheFullBody() async throws {
            let nginx = try currentNginx()
            var request = HTTPRequest(url: nginx.url("/files/1k.bin"))
            request.addValidators(etag: "\"not-the-current-one\"", lastModified: nil)

            let response = try await withTestClient { try await $0.execute(request) }

            #expect(response.status == 200)
            #expect(response.body == TestFiles.binary(named: "1k.bin"))
        }

        @Test func aMatchingLastModifiedEarnsA304() async throws {
            let nginx = try currentNginx()
            let url = nginx.url("/files/hello.txt")
            try await withTestClient { client in
                let lastModified = try #require(try await client.get(url).headers["Last-Modified"])
                var request = HTTPRequest(url: url)
                request.addValidators(etag: nil, lastModified: lastModified)

                #expect(try await client.execute(request).status == 304)
            }
        }

        @Test func a304DownloadIsAnEmptyFile() async throws {
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = nginx.url("/files/1m.bin")
            try await withTestClient { client in
                let etag = try #require(try await client.get(url).headers["ETag"])
                var request = HTTPRequest(url: url)
                request.addValidators(etag: etag, lastModified: nil)

                let download = try await client.download(request, into: folder)

                #expect(download.isNotModified)
                #expect(download.byteCount == 0)
                #expect(try Data(contentsOf: download.fileURL).isEmpty)
            }
        }
    }
}
