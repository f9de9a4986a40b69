import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `download(_:into:)`: the body on disk, and nothing left behind when it fails.
    @Suite struct DownloadTests {
        @Test func theFileHoldsTheBody() async throws {
            // Given a 5 MiB file
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let expected = try #require(TestFiles.binary(named: "5m.bin"))

            // When it is downloaded into a folder
            let download = try await withTestClient {
                try await $0.download(HTTPRequest(url: nginx.url("/files/5m.bin")), into: folder)
            }

            // Then the file there, the only one, holds exactly its bytes
            #expect(download.status == 200)
            #expect(download.byteCount == expected.count)
            #expect(download.fileURL.deletingLastPathComponent().standardizedFileURL == folder.standardizedFileURL)
            #expect(contents(of: folder) == [download.fileURL.lastPathComponent])
            #expect(try Data(contentsOf: download.fileURL) == expected)
            #expect(download.metrics.bytesReceived == expected.count)
        }

        @Test func aMissingFolderIsCreated() async throws {
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let nested = folder.appendingPathComponent("a/b", isDirectory: true)

            let download = try await withTestClient {
                try await $0.download(HTTPRequest(url: nginx.url("/files/hello.txt")), into: nested)
            }

            #expect(try Data(contentsOf: download.fileURL) == TestFiles.hello)
        }

        @Test func anErrorStatusIsADownloadToo() async throws {
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }

            let download = try await withTestClient {
                try await $0.download(HTTPRequest(url: nginx.url("/status/404")), into: folder)
            }

            #expect(download.status == 404)
            #expect(!download.isSuccess)
            #expect(try Data(contentsOf: download.fileURL) == Data("no such thing here\n".utf8))
        }

        /// Failures, each of which must leave the folder empty.
        enum Failure: String, CaseIterable, Sendable {
            case bodyTooLarge, totalTimeout, refusedRedirect, cancelled
        }

        @Test(arguments: Failure.allCases)
        func aFailedDownloadLeavesNoFile(failure: Failure) async throws {
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }

            try await withTestClient { client in
                switch failure {
                case .bodyTooLarge:
                    // Chunked, so the limit is hit after bytes were written.
                    var request = HTTPRequest(url: nginx.url("/gzip/lorem.txt"))
                    request.maximumBodySize = 100 * 1024
                    await expectHTTPError(.bodyTooLarge) { try await client.download(request, into: folder) }
                case .totalTimeout:
                    var request = HTTPRequest(url: nginx.url("/slow/1m.bin"))
                    request.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(1), stall: .seconds(30))
                    await expectHTTPError(.timedOut) { try await client.download(request, into: folder) }
                case .refusedRedirect:
                    await expectHTTPError(.unsupportedScheme) {
                        try await client.download(HTTPRequest(url: nginx.url("/to-file")), into: folder)
                    }
                case .cancelled:
                    let task = Task {
                        try await client.download(HTTPRequest(url: nginx.url("/slow/1m.bin")), into: folder)
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    task.cancel()
                    await expectHTTPError(.cancelled) { try await task.value }
                }
            }

            #expect(contents(of: folder).isEmpty)
        }

        @Test func aFolderThatCannotBeCreatedIsAFileSystemError() async throws {
            // Given a "folder" path below a regular file
            let nginx = try currentNginx()
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)

            let error = await expectHTTPError(.fileSystem) {
                try await withTestClient {
                    try await $0.download(
                        HTTPRequest(url: nginx.url("/files/hello.txt")), into: file.appendingPathComponent("sub"))
                }
            }

            #expect(error?.description.contains("plain-file") == true)
        }
    }
}
