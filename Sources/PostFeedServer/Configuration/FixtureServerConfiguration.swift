import Foundation
public import Logging

/// Everything a ``RunningFixtureServer`` needs: where to listen, what to serve, how to misbehave.
///
/// The defaults give PostFeed's own API over `Fixtures/` on a free loopback port, no faults,
/// no test routes:
/// ```swift
/// try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
///     print(server.baseURL)   // http://127.0.0.1:41234
/// }
/// ```
public struct FixtureServerConfiguration: Sendable {
    /// Address to bind. Loopback by default; the server is for tests and demos.
    public var host: String
    /// Port to bind; `0` picks a free port (read it back from ``RunningFixtureServer/port``).
    public var port: Int
    /// The `Fixtures/` directory (`posts.json`, `images/`).
    public var fixturesDirectory: URL
    /// The peer-data directory the other flavors read (`jsonplaceholder/data.json`,
    /// `dummyjson/posts.json`).
    public var peerDataDirectory: URL
    /// Which backend convention to speak.
    public var flavor: BackendFlavor
    /// Injected failures; off by default.
    public var faults: FaultInjection
    /// Pagination mistakes of real backends, for the `postFeed` flavor; none by default.
    public var quirks: PaginationQuirks = .none
    /// How the `postFeed` flavor writes post ids: as in `Fixtures/` (integers) by default,
    /// or as the strings and large numbers of other backends (``ServedPostIDs/strings``).
    public var postIDs: ServedPostIDs = .numbers
    /// Serves the `/test/…` routes the HTTP client's tests use (see ``TestRoutes``).
    public var enablesTestRoutes: Bool
    /// `max-age` in seconds of `Cache-Control` on list pages and single posts; negative
    /// sends no `Cache-Control`.
    public var pageMaxAge: Int
    /// `max-age` in seconds of `Cache-Control` on images; negative sends no `Cache-Control`
    /// (images keep their `ETag` and `Last-Modified`).
    public var imageMaxAge: Int
    /// Level of the server's own log (requests, errors); `.warning` keeps tests quiet.
    public var logLevel: Logger.Level

    /// Creates a configuration; see each property for its meaning.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        fixturesDirectory: URL = FixtureLocator.fixturesDirectory(),
        peerDataDirectory: URL = FixtureLocator.peerDataDirectory(),
        flavor: BackendFlavor = .postFeed,
        faults: FaultInjection = .none,
        enablesTestRoutes: Bool = false,
        pageMaxAge: Int = 60,
        imageMaxAge: Int = 86_400,
        logLevel: Logger.Level = .warning
    ) {
        self.host = host
        self.port = port
        self.fixturesDirectory = fixturesDirectory
        self.peerDataDirectory = peerDataDirectory
        self.flavor = flavor
        self.faults = faults
        self.enablesTestRoutes = enablesTestRoutes
        self.pageMaxAge = pageMaxAge
        self.imageMaxAge = imageMaxAge
        self.logLevel = logLevel
    }
}
