import Foundation
import PostFeedServer
import Testing

/// Runs a `PostFeedServer` with its `/test/…` routes on a free loopback port around a
/// suite; tests read it with ``FixtureServerTrait/current``.
struct FixtureServerTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: RunningFixtureServer?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        var configuration = FixtureServerConfiguration()
        configuration.enablesTestRoutes = true
        try await RunningFixtureServer.withRunning(configuration) { server in
            try await Self.$current.withValue(server) {
                try await function()
            }
        }
    }
}

extension Trait where Self == FixtureServerTrait {
    /// Runs the suite against a fresh fixture server with test routes.
    static var fixtureServer: Self { FixtureServerTrait() }
}

/// The fixture server of the enclosing `.fixtureServer` suite.
func currentFixtureServer() throws -> RunningFixtureServer {
    try #require(FixtureServerTrait.current, "this test must run inside a @Suite(.fixtureServer)")
}

extension RunningFixtureServer {
    /// `baseURL` + `path`, which may carry a query.
    func url(_ path: String) -> URL {
        guard let url = URL(string: baseURL.absoluteString + path) else {
            preconditionFailure("bad test path \(path)")
        }
        return url
    }

    /// Requests the server received whose query contains `fragment`.
    func requests(withQueryContaining fragment: String) -> [RecordedRequest] {
        recordedRequests.filter { $0.query?.contains(fragment) == true }
    }
}
