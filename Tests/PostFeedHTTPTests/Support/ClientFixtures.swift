import Foundation
import PostFeedHTTP
import Testing

/// The configuration the tests start from: no retries (a test about retries turns them on
/// with a ``RecordingClock``) and short timeouts, so a failure does not hang the suite.
func testConfiguration(_ adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient.Configuration {
    var configuration = HTTPClient.Configuration(
        timeouts: HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(10)),
        retryPolicy: .never)
    adjust(&configuration)
    return configuration
}

/// Runs `body` with a client built from ``testConfiguration(_:)`` and shuts it down after.
func withTestClient<T>(
    _ adjust: (inout HTTPClient.Configuration) -> Void = { _ in },
    _ body: (HTTPClient) async throws -> T
) async throws -> T {
    try await HTTPClient.withHTTPClient(configuration: testConfiguration(adjust), body)
}

/// The nginx of the enclosing `.nginx` suite.
func currentNginx() throws -> NginxServer {
    try #require(NginxServer.current, "this test must run inside a @Suite(.nginx)")
}

/// Awaits `operation`, which must throw an ``HTTPClientError`` with `code`; returns the
/// error (or records an issue and returns `nil`).
@discardableResult
func expectHTTPError<T>(
    _ code: HTTPClientError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws -> T
) async -> HTTPClientError? {
    do {
        let value = try await operation()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as HTTPClientError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected HTTPClientError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A folder of its own under the temporary directory, for downloads.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("postfeed-http-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Names in `folder`, hidden ones included (downloads start as `.download-` and a random suffix).
func contents(of folder: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
}
