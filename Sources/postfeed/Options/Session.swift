import ArgumentParser
import Foundation
import Logging
import PostFeed
import PostFeedPreview
import PostFeedRedis
import PostFeedCache
import PostFeedHTTP
import PostFeedServer

/// One command's wiring: the backend (the built-in fixture backend when no --base-url),
/// the ``FeedClient`` over it, and orderly shutdown. No feed logic lives here.
struct Session {
    let client: FeedClient
    private let fixtureServer: DetachedFixtureServer?

    /// Opens a session, runs `body`, and shuts everything down, also when `body` throws.
    static func run<T>(
        _ options: BackendOptions,
        configure: (inout FeedClient.Configuration) -> Void = { _ in },
        _ body: (FeedClient) async throws -> T
    ) async throws -> T {
        LoggingBootstrap.configure(verbose: options.verbose)
        // --verbose: the library's counters added up in process, one summary line at exit.
        let summary = options.verbose ? RunSummaryMetrics() : nil
        // Also when SIGINT or SIGTERM ends the run where no command watches for it (while
        // it starts, shuts down, or at a second Ctrl-C): said on the way out.
        var sayTotals: (@Sendable () -> Void)?
        if let summary {
            sayTotals = { Terminal.note("postfeed: \(summary.summary())") }
            TerminationWatcher.sayOnTermination(sayTotals)
        }
        let session: Session
        do {
            session = try await open(options, metrics: summary, configure: configure)
        } catch {
            TerminationWatcher.sayOnTermination(nil)
            throw error
        }
        let result: Result<T, any Error>
        do { result = .success(try await body(session.client)) } catch { result = .failure(error) }
        await session.close()
        TerminationWatcher.sayOnTermination(nil)
        sayTotals?()
        return try result.get()
    }

    private static func open(
        _ options: BackendOptions, metrics: RunSummaryMetrics?, configure: (inout FeedClient.Configuration) -> Void
    ) async throws -> Session {
        var server: DetachedFixtureServer?
        // --base-url wins; a --backend file names its own server (its `baseURL`).
        var baseURL = options.baseURL.flatMap(URL.init(string:))
        if baseURL == nil, options.backendFile == nil {
            // No backend given: serve the fixtures in-process on a free loopback port, speaking
            // the convention --api names, so the first run needs no setup.
            do {
                let started = try await Self.startBuiltInBackend(flavor: options.api.fixtureFlavor)
                server = started
                // A recorded API's requests were recorded under a subreddit or with a key; the
                // built-in feed is under /feeds/rss/.
                let suffix = options.api.fixtureFlavor.recordedBaseURLSuffix + options.api.builtInBasePath
                baseURL = suffix.isEmpty ? started.baseURL : URL(string: started.baseURL.absoluteString + suffix)
            } catch {
                throw CLIError("cannot start the built-in fixture backend: \(error); pass --base-url to use another backend")
            }
        }
        var backend: BackendDescription
        do {
            if let file = options.backendFile {
                backend = try BackendDescription.load(from: URL(fileURLWithPath: file), baseURL: baseURL)
            } else if let baseURL {
                backend = try BackendDescription.preset(options.api, baseURL: baseURL)
            } else {
                throw CLIError("--base-url '\(options.baseURL ?? "")' is not a URL; use e.g. http://127.0.0.1:6969")
            }
        } catch {
            await server?.shutdown()
            throw CLIError(RecoveryAdvice.message(for: error))
        }
        if let fixed = backend.fixedPageSize, options.pageSize != fixed, options.pageSize != BackendDescription.defaultPageSize {
            Logger(label: "postfeed").warning("--page-size \(options.pageSize) is not used: backend \(backend.name) sends pages of \(fixed)")
        }
        // The built-in backend is the same data whatever port it got: one identity for it,
        // so state saved by one run is restored by the next.
        if server != nil { backend.fixedIdentity = "\(backend.name) built-in fixture backend" }
        // A feed's pages are the server's: the page size is fixed (so a saved place is never
        // rebuilt for another), and a --page-size given says so.
        var pageSize = options.pageSize
        if backend.pageFormat == .feed {
            if let asked = options.pageSizeOption {
                Terminal.note("postfeed: --page-size \(asked) changes nothing here: a feed's pages are as long as its server makes them")
            }
            pageSize = BackendDescription.defaultPageSize
        }
        do {
            var configuration = FeedClient.Configuration(
                backend: backend, pageSize: pageSize, cacheLocation: options.cacheLocation, offline: options.offline)
            // --timeout wins over the backend file's; either (else the default 60 s) bounds
            // every request of the run, its retries included.
            configuration.limitRequests(
                toSeconds: options.timeout ?? backend.requestTimeout ?? BackendOptions.defaultTimeout)
            // --shared-cache wins over the backend file's sharedCache.
            if let address = try options.sharedCache.map({ text throws in try RedisAddress(parsing: text) }) ?? backend.sharedCache {
                configuration.sharedCache = RedisCache.Configuration(address: address)
            }
            if let proxy = options.proxy {
                configuration.http.proxy = ProxyOption.settings(proxy)
            } else if server != nil {
                // The built-in backend is in this process, on loopback: a proxy from the
                // environment could not reach it, or would only get in the way.
                configuration.http.proxy = HTTPProxySettings(origin: "the built-in backend is on loopback")
            }
            if !options.offline {
                Logger(label: "postfeed").debug("\(configuration.http.proxy.summary)")
            }
            if let metrics { configuration.telemetry.metricsFactory = metrics }
            // The CLI draws previews: decoders, libchafa and the thumbnail layer, and the
            // decoder's reason when a body is not an image.
            configuration.plugins.append(ImagePreviews())
            configuration.images.rejectionReason = { data in ImageDecoder.rejectionReason(for: data) }
            configure(&configuration)
            let client = try FeedClient(configuration)
            return Session(client: client, fixtureServer: server)
        } catch {
            await server?.shutdown()
            throw CLIError(RecoveryAdvice.message(for: error))
        }
    }

    private func close() async {
        await client.shutdown()
        await fixtureServer?.shutdown()
    }

    /// The loopback port the built-in backend tries first (a free one when it is taken, e.g.
    /// by a `browse` still open). The backend's fixed identity keys the caches, not the port,
    /// so a run on another port still finds what earlier runs cached.
    static let builtInBackendPort = 46969

    static func startBuiltInBackend(flavor: BackendFlavor) async throws -> DetachedFixtureServer {
        do {
            return try await RunningFixtureServer.startDetached(FixtureServerConfiguration(port: builtInBackendPort, flavor: flavor))
        } catch {
            return try await RunningFixtureServer.startDetached(FixtureServerConfiguration(port: 0, flavor: flavor))
        }
    }
}

/// Logs go to stderr: warnings by default, everything with --verbose.
enum LoggingBootstrap {
    nonisolated(unsafe) private static var configured = false

    static func configure(verbose: Bool) {
        guard !configured else { return }
        configured = true
        LoggingSystem.bootstrap { _ in CLILogHandler(logLevel: verbose ? .debug : .warning) }
    }
}

/// swift-log records as the tool's other notes: `postfeed: warning: <message>` on stderr,
/// the part of the library that logged in brackets, other metadata after the message.
struct CLILogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Terminal.note(Self.line(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var metadata = metadata
        let component = metadata.removeValue(forKey: "component").map { "[\($0)] " } ?? ""
        let message = RecoveryAdvice.warning(message, metadata: &metadata)
        let details = metadata.isEmpty
            ? "" : " (" + metadata.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
        return "postfeed: \(level): \(component)\(message)\(details)"
    }
}
