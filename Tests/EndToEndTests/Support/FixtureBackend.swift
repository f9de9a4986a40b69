import Foundation
import SuiteSupport
import PostFeedServer

/// Facts about `Fixtures/` the tests rely on (see `Fixtures/README.md`).
enum FixtureFacts {
    static let postCount = 247
    static let defaultPageSize = 20
    static let pageCount = 13
    /// Posts without an `imageUrl`.
    static let postsWithoutImage: Set<Int> = [5, 58, 133, 201]
}

/// Runs `body` with a fixture server on a loopback port (a free one unless `port` is
/// given: a second server at the same URL as a stopped one), stopped afterwards.
func withFixtureServer<T>(
    port: Int = 0,
    testRoutes: Bool = false,
    faults: FaultInjection = .none,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningFixtureServer) async throws -> T
) async throws -> T {
    // Not port 0: a test that stops this server and starts another at its URL must get
    // the port back, and the kernel hands port-0 binds of other tests out of its own range.
    // A given port is a restart at a stopped server's URL: wait while it is still closing.
    try await RunningFixtureServer.withRunning(
        FixtureServerConfiguration(port: port == 0 ? TestPorts.reserve() : port, faults: faults, enablesTestRoutes: testRoutes),
        waitingForPort: port == 0 ? .zero : .seconds(15), body)
}

/// `postfeed <name> <base-url> /api/posts`: the identity list state is saved under.
func backendIdentity(of server: RunningFixtureServer) -> String {
    "postfeed \(server.baseURL.absoluteString)/api/posts"
}
