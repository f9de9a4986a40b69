import Dispatch
import Foundation

extension RunningFixtureServer {
    /// Runs a fixture server until the process gets SIGINT or SIGTERM, or the calling task is
    /// cancelled; for `postfeed serve --port 6969`.
    ///
    /// ```swift
    /// var configuration = FixtureServerConfiguration(port: 6969)
    /// configuration.logLevel = .info
    /// try await RunningFixtureServer.serve(configuration) { server in
    ///     print("serving \(server.configuration.fixturesDirectory.path) at \(server.baseURL)")
    /// }
    /// ```
    /// - Parameters:
    ///   - configuration: What to serve and where.
    ///   - onStarted: Called once the server listens (print the URL here).
    /// - Returns: The signal that stopped the server, or `nil` when the task was cancelled.
    @discardableResult
    public static func serve(
        _ configuration: FixtureServerConfiguration,
        onStarted: @Sendable (RunningFixtureServer) async -> Void = { _ in }
    ) async throws -> Int32? {
        // Watch before starting, so a signal sent as soon as the server is up is never missed.
        let signals = TerminationSignalWatcher()
        defer { signals.stop() }
        return try await withRunning(configuration) { server in
            await onStarted(server)
            return await signals.next()
        }
    }

    /// Starts a fixture server in the background and returns once it listens; for the CLI's
    /// default mode, which needs a backend URL but no scoped body. Call
    /// ``DetachedFixtureServer/shutdown()`` when done (a process that exits stops it too).
    ///
    /// ```swift
    /// let backend = try await RunningFixtureServer.startDetached(FixtureServerConfiguration())
    /// defer { Task { await backend.shutdown() } }
    /// print(backend.baseURL)   // http://127.0.0.1:41234
    /// ```
    public static func startDetached(
        _ configuration: FixtureServerConfiguration = FixtureServerConfiguration()
    ) async throws -> DetachedFixtureServer {
        let (events, continuation) = AsyncStream<Result<RunningFixtureServer, any Error>>.makeStream()
        let task = Task {
            do {
                try await withRunning(configuration) { server in
                    continuation.yield(.success(server))
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(3_600))
                    }
                }
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .success(let server): return DetachedFixtureServer(server: server, task: task)
            case .failure(let error): throw error
            }
        }
        throw FixtureServerError.stoppedBeforeStarting(
            host: configuration.host, port: configuration.port, reason: "the start was cancelled")
    }
}

/// A fixture server started by ``RunningFixtureServer/startDetached(_:)``, running until
/// ``shutdown()``.
public final class DetachedFixtureServer: Sendable {
    /// The running server: port, base URL, request counters.
    public let server: RunningFixtureServer
    private let task: Task<Void, Never>

    init(server: RunningFixtureServer, task: Task<Void, Never>) {
        self.server = server
        self.task = task
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { server.baseURL }

    /// Stops the server and waits until it no longer listens. Calling it again does nothing.
    public func shutdown() async {
        task.cancel()
        await task.value
    }
}

/// Catches SIGINT and SIGTERM from creation until ``stop()``, without letting them kill the
/// process; the default dispositions are restored by ``stop()``.
final class TerminationSignalWatcher {
    private let signals: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private let sources: [any DispatchSourceSignal]

    init() {
        (signals, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // Dispatch sees the signal; the default action must not.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [continuation] in continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The next SIGINT/SIGTERM, or `nil` when the calling task is cancelled first.
    func next() async -> Int32? {
        for await number in signals { return number }
        return nil
    }

    /// Stops watching and restores the default dispositions.
    func stop() {
        for source in sources { source.cancel() }
        continuation.finish()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
