import Foundation
import PostFeedHTTP
import PostFeedServer
import Testing

/// The README's `PostFeedHTTP` example, run against the fixture backend. Every line of the
/// README's code block must appear in ``example(server:)`` below (checked), so the README
/// cannot drift from code that compiles and runs.
@Suite struct ReadmeHTTPExampleTests {
    struct Seen {
        var pageStatus = 0
        var pageVersion = ""
        var revalidated = false
        var downloadedBytes = 0
        var downloadedIsImage = false
        var missingError: HTTPClientError?
    }

    @Test func theExampleRunsAgainstTheFixtureBackend() async throws {
        try await RunningFixtureServer.withRunning { server in
            let seen = try await Self.example(server: server.baseURL)

            #expect(seen.pageStatus == 200)
            #expect(seen.pageVersion == "1.1")
            #expect(seen.revalidated, "the second request carried the validators and got 304")
            #expect(seen.downloadedBytes > 1000)
            #expect(seen.downloadedIsImage)
            #expect(seen.missingError?.code == .httpStatus)
            #expect(seen.missingError?.status == 404)
            #expect(seen.missingError?.url?.path == "/api/posts/999999")
        }
    }

    @Test func theReadmeShowsThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let block = try #require(Self.codeBlock(after: "### The HTTP client on its own", in: readme))
        let here = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })

        let readmeOnly = ["import Foundation", "import PostFeedHTTP"]
        let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !readmeOnly.contains($0) && !$0.hasPrefix("let server = ") }
        let missing = lines.filter { !here.contains($0) }
        #expect(lines.count > 10)
        #expect(missing.isEmpty, "README lines not in the tested example: \(missing)")
    }

    /// The first ```swift block after `heading`.
    static func codeBlock(after heading: String, in text: String) -> String? {
        guard let start = text.range(of: heading),
            let open = text.range(of: "```swift\n", range: start.upperBound..<text.endIndex),
            let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    // MARK: README (README.md, "The HTTP client on its own")
    static func example(server: URL) async throws -> Seen {
        var seen = Seen()
        var configuration = HTTPClient.Configuration()
        configuration.maximumConnectionsPerHost = 8
        configuration.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(10))

        try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            // What the reader looks at: `.high` starts before queued `.low` prefetches.
            let pageURL = server.appending(path: "api/posts").appending(queryItems: [URLQueryItem(name: "page", value: "1")])
            let page = try await client.get(pageURL, priority: .high).requireSuccess()
            print(page.status, page.metrics.httpVersion, page.metrics.total, page.metrics.reusedConnection)
            seen.pageStatus = page.status
            seen.pageVersion = page.metrics.httpVersion

            // Revalidate with the validators it came with: a 304 is a result, not an error.
            var again = HTTPRequest(url: pageURL)
            again.addValidators(etag: page.headers["ETag"], lastModified: page.headers["Last-Modified"])
            let revalidated = try await client.execute(again)
            print(revalidated.isNotModified ? "still fresh" : "changed")
            seen.revalidated = revalidated.isNotModified

            // A large body goes to a file in a folder of yours, never into memory.
            let image = HTTPRequest(url: server.appending(path: "images/img-001.jpg"), priority: .low)
            let download = try await client.download(image, into: FileManager.default.temporaryDirectory)
            defer { try? FileManager.default.removeItem(at: download.fileURL) }
            print(download.status, download.byteCount, download.headers["Content-Type"] ?? "?", download.fileURL.path)
            seen.downloadedBytes = download.byteCount
            seen.downloadedIsImage = download.headers["Content-Type"] == "image/jpeg"

            // A 404 is a response too; `requireSuccess()` turns it into an error naming the URL.
            do throws(HTTPClientError) {
                _ = try await client.get(server.appending(path: "api/posts/999999")).requireSuccess()
            } catch {
                print(error.code, error.status ?? 0, error)
                seen.missingError = error
            }
        }
        return seen
    }
}
