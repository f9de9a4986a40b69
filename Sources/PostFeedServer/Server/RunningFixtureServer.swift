public import Foundation
public import PostFeedModels
import Hummingbird
import ServiceLifecycle
import Logging
import NIOCore
import Synchronization

/// A fixture server that is listening, handed to the body of ``withRunning(_:isolation:_:)``.
///
/// The lifetime is scoped, like `HTTPClient.withHTTPClient`: the server starts before the
/// body runs and is shut down when it returns or throws.
///
/// ```swift
/// try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
///     let url = server.baseURL.appendingPathComponent("api/posts")   // http://127.0.0.1:PORT/api/posts
///     // … run the client against `url` …
///     #expect(server.requestCount(path: "/api/posts") == 1)
/// }
/// ```
///
/// The request counters are thread-safe and count every request the server receives,
/// including unknown routes and requests that got an injected fault.
public struct RunningFixtureServer: Sendable {
    /// The configuration the server runs with (its `port` may be 0; see ``port``).
    public let configuration: FixtureServerConfiguration
    /// The port the server is bound to.
    public let port: Int
    private let state: FixtureServerState

    init(configuration: FixtureServerConfiguration, port: Int, state: FixtureServerState) {
        self.configuration = configuration
        self.port = port
        self.state = state
    }

    /// The host part of ``baseURL``: the configured host, or `127.0.0.1` when bound to all
    /// interfaces.
    public var host: String {
        switch configuration.host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::": return "[::1]"
        case let host where host.contains(":") && !host.hasPrefix("["): return "[\(host)]"
        case let host: return host
        }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    public var baseURL: URL {
        URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    // MARK: Request counters

    /// Requests received since start (or the last ``resetRequestCounts()``).
    public var totalRequestCount: Int { state.requestLog.total }

    /// Requests received for exactly this path (no query), e.g. `/api/posts` or `/images/img-001.jpg`.
    public func requestCount(path: String) -> Int { state.requestLog.count(path: path) }

    /// Requests received for every path starting with `prefix`, e.g. `/images/`.
    public func requestCount(pathPrefix: String) -> Int { state.requestLog.count(pathPrefix: pathPrefix) }

    /// Request counts by path.
    public var requestCountsByPath: [String: Int] { state.requestLog.countsByPath }

    /// The most recent requests (up to 10 000), oldest first.
    public var recordedRequests: [RecordedRequest] { state.requestLog.recent }

    /// Sets every counter back to zero and empties ``recordedRequests``.
    public func resetRequestCounts() { state.requestLog.reset() }

    // MARK: Content changes

    /// Revises the posts `postIDs` (PostFeed's own API): each title gets its new revision
    /// (`(revision 1) …`), so the pages holding them change body and `ETag`. The same as
    /// `POST /test/revise?ids=…`. Returns every revised post's revision.
    @discardableResult
    public func revise(postIDs: some Sequence<PostID>) -> [PostID: Int] {
        state.revisions.revise(postIDs)
    }

    /// ``revise(postIDs:)`` of integer ids (`revise(postIDs: 1...5)`).
    @discardableResult
    public func revise(postIDs: some Sequence<Int>) -> [PostID: Int] {
        revise(postIDs: postIDs.map { PostID($0) })
    }

    // MARK: Lifetime

    /// ``withRunning(_:isolation:_:)`` for a server at a URL another one just left (a
    /// restart at the same port): while the port is still taken, starting is tried again
    /// for up to `portWait` before the error is thrown.
    public static func withRunning<T>(
        _ configuration: FixtureServerConfiguration, waitingForPort portWait: Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + portWait
        while true {
            var started = false
            do {
                return try await withRunning(configuration) { server in
                    started = true
                    return try await body(server)
                }
            } catch let error as FixtureServerError where error.isPortInUse && !started && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Starts a fixture server, runs `body` with it, then shuts the server down.
    ///
    /// - Throws: ``FixtureServerError`` when the data cannot be loaded, the configuration is
    ///   invalid or the port cannot be bound; otherwise whatever `body` throws.
    public static func withRunning<T>(
        _ configuration: FixtureServerConfiguration = FixtureServerConfiguration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        let state = try FixtureServerState(configuration: configuration)
        let stopping = ServerLogHandler.ShutdownFlag()
        var logger = Logger(label: "PostFeedServer") { ServerLogHandler(label: $0, shutdown: stopping) }
        logger.logLevel = configuration.logLevel
        let (started, startedContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: FixtureApplication.makeResponder(state: state),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                startedContinuation.yield(channel.localAddress?.port ?? configuration.port)
                startedContinuation.finish()
            },
            logger: logger)

        // Stopping goes through a graceful shutdown, never by cancelling the serving task:
        // a cancelled NIO server channel can drop a connection it accepted but never served,
        // and that traps ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio
        // #2637 and #3481). Graceful shutdown stops accepting first and closes what was
        // accepted; a stalled test route is cut off after `shutdownGracePeriod`.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: application, successTerminationBehavior: .gracefullyShutdownGroup)],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = shutdownGracePeriod
        // No cancellation deadline: ServiceLifecycle escalates a late cancellation to a
        // fatalError, and on a loaded machine (the whole test target in parallel on 2 cores) a
        // server that took over 2 s to finish cancelling trapped the entire test process.
        groupConfiguration.maximumCancellationDuration = nil
        let services = ServiceGroup(configuration: groupConfiguration)
        // Cancelling the caller cancels the server directly; mute its shutdown noise then too.
        return try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                let failure = ServerFailure()
                // Connections are served in child tasks of this one, which inherit its
                // executor: the server answers while the cooperative pool is blocked.
                group.addTask(executorPreference: ServerExecutor.shared) {
                    do {
                        try await services.run()
                    } catch {
                        failure.set("\(error)")
                    }
                    startedContinuation.finish()
                }
                var boundPort: Int?
                for await port in started {
                    boundPort = port
                    break
                }
                guard let boundPort else {
                    stopping.set()
                    await services.triggerGracefulShutdown()
                    throw FixtureServerError.stoppedBeforeStarting(
                        host: configuration.host, port: configuration.port,
                        reason: failure.value ?? "the server stopped")
                }
                state.boundAuthority.withLock { $0 = "\(configuration.host):\(boundPort)" }
                let server = RunningFixtureServer(configuration: configuration, port: boundPort, state: state)
                let result: Result<T, any Error>
                do {
                    result = .success(try await body(server))
                } catch {
                    result = .failure(error)
                }
                stopping.set()
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                // The service returns once the channel's close is under way; the socket may
                // still be bound for a moment on a busy machine. A caller that starts the
                // next server at this URL (the tests' restarts) finds the port free.
                await ListeningPort.released(host: configuration.host, port: boundPort, within: shutdownGracePeriod)
                return try result.get()
            }
        } onCancel: {
            stopping.set()
        }
    }

    /// How long a stop waits for requests in flight (a stalled test route) before it cuts them off.
    static let shutdownGracePeriod: Duration = .seconds(2)
}

/// The error that ended the server task, if any (read after the start stream finishes).
private final class ServerFailure: Sendable {
    private let storage = Mutex<String?>(nil)
    var value: String? { storage.withLock { $0 } }
    func set(_ message: String) { storage.withLock { $0 = message } }
}
