import Foundation
import PostFeedServer

/// Runs a fixture server on port 0 for one test, with a raw client pointed at it.
func withFixtureServer<T>(
    _ configure: (inout FixtureServerConfiguration) -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningFixtureServer, RawHTTPClient) async throws -> T
) async throws -> T {
    var configuration = FixtureServerConfiguration()
    configure(&configuration)
    return try await RunningFixtureServer.withRunning(configuration) { server in
        try await body(server, RawHTTPClient(port: server.port))
    }
}

/// ``withFixtureServer(_:isolation:_:)`` with the `/test/…` routes enabled.
func withTestRoutes<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningFixtureServer, RawHTTPClient) async throws -> T
) async throws -> T {
    try await withFixtureServer({ $0.enablesTestRoutes = true }, body)
}

/// A `Link` header parsed into relation → URL.
func parseLinks(_ value: String?) -> [String: String] {
    guard let value, !value.isEmpty else { return [:] }
    var links: [String: String] = [:]
    for member in value.components(separatedBy: ", <") {
        let trimmed = member.hasPrefix("<") ? String(member.dropFirst()) : member
        guard let close = trimmed.firstIndex(of: ">") else { continue }
        let url = String(trimmed[..<close])
        let parameters = trimmed[trimmed.index(after: close)...]
        guard let relRange = parameters.range(of: "rel=\"") else { continue }
        let rel = parameters[relRange.upperBound...].prefix { $0 != "\"" }
        links[String(rel)] = url
    }
    return links
}

/// The posts in `Fixtures/posts.json`, read independently of the server.
func fixturePostCount() throws -> Int {
    let data = try Data(contentsOf: FixtureLocator.fixturesDirectory().appendingPathComponent("posts.json"))
    let array = try JSONSerialization.jsonObject(with: data) as? [Any]
    return array?.count ?? -1
}

/// A temporary fixtures folder holding `posts` as `posts.json`; removed after `body`.
func withTemporaryFixtures<T>(
    postsJSON: String, isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-fixtures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(postsJSON.utf8).write(to: directory.appendingPathComponent("posts.json"))
    return try await body(directory)
}
