import Foundation
import Logging
import Synchronization

/// The libcurl ``HTTPLoading``: one curl multi handle on one thread, shared by every
/// request, with connection reuse, priorities, retries, limits and cancellation.
///
/// Prefer the scoped form, which guarantees shutdown:
/// ```swift
/// let body = try await HTTPClient.withHTTPClient { client in
///     try await client.get(URL(string: "http://127.0.0.1:6969/api/posts?page=1")!).body
/// }
/// ```
/// A client that is simply released also stops its thread, without waiting for it.
/// The thread is named `postfeed-curl` (in `top -H`, `perf` and debuggers).
public final class HTTPClient: HTTPLoading {
    /// The settings the client was made with; fixed for its lifetime.
    public let configuration: Configuration
    private let engine: CurlMultiEngine
    private let logger: Logger
    private let nextID = Atomic<UInt64>(1)
    /// Memory bodies are received into (see ``BodyBufferPool``).
    private let bodyBuffers: BodyBufferPool

    /// Sets up the engine; its thread starts with the first request (or ``start()``). Call
    /// ``shutdown()`` when done, or use
    /// ``withHTTPClient(configuration:logger:isolation:_:)``, which does. Throws `.curl` when
    /// libcurl cannot be initialised.
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "postfeed.http"))
        throws(HTTPClientError)
    {
        self.configuration = configuration
        self.logger = logger
        self.bodyBuffers = BodyBufferPool(idleLimit: configuration.pooledBodyMemory)
        self.engine = try CurlMultiEngine(
            limits: .init(
                maximumConnections: max(1, configuration.maximumConnections),
                maximumConnectionsPerHost: max(1, configuration.maximumConnectionsPerHost)),
            logger: logger)
    }

    deinit {
        engine.requestShutdown()
    }

    /// Runs `body` with a new client and shuts it down afterwards, also when `body` throws.
    /// `body` runs in the caller's isolation, so it may return a non-`Sendable` value.
    public static func withHTTPClient<T>(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "postfeed.http"),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HTTPClient) async throws -> T
    ) async throws -> T {
        let client = try HTTPClient(configuration: configuration, logger: logger)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// Starts the engine thread now rather than with the first request (a service's
    /// `run()`). Calling it again does nothing.
    public func start() {
        engine.start()
    }

    /// Whether the engine thread has been started (``start()`` or a first request).
    public var isStarted: Bool { engine.isStarted }

    /// Fails queued and running requests with `.shutdown`, then stops the engine thread.
    public func shutdown() async {
        await engine.shutdown()
    }

    /// The libcurl in use, e.g. `libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 brotli/1.0.9`.
    public static var libcurlVersion: String { CurlGlobal.version }

    // MARK: HTTPLoading

    /// Performs `request`, holding the body in memory, and retries it as
    /// ``Configuration/retryPolicy`` allows (idempotent methods only). Each attempt gets the
    /// full timeouts, or what is left of ``HTTPTimeouts/overall`` when that is set. See ``HTTPLoading`` for what throws and what returns.
    public func execute(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let outcome = try await withRetries(request) { () throws(HTTPClientError) -> BodySink in .memory }
        return HTTPResponse(
            requestURL: request.url, url: outcome.effectiveURL, status: outcome.status, headers: outcome.headers,
            body: outcome.body, metrics: outcome.metrics)
    }

    /// Like ``execute(_:)``, but streams the body into a new file `.download-XXXXXX` in
    /// `directory` (created if missing). A failed or retried attempt's file is deleted.
    /// Throws `.fileSystem` when the file cannot be created or written.
    public func download(_ request: HTTPRequest, into directory: URL) async throws(HTTPClientError) -> HTTPDownload {
        try await download(request, to: NamedFolderDestination(directory: directory))
    }

    /// Like ``execute(_:)``, but streams the body into a file `destination` makes (one per
    /// attempt); a failed or retried attempt's file is removed through `destination`.
    /// Throws `.fileSystem` when the file cannot be made or written.
    public func download(_ request: HTTPRequest, to destination: any DownloadDestination) async throws(HTTPClientError) -> HTTPDownload {
        let outcome = try await withRetries(request) { () throws(HTTPClientError) -> BodySink in
            do throws(DownloadDestinationError) {
                return .file(try destination.makeFile(), destination: destination)
            } catch {
                throw HTTPClientError(.fileSystem, url: request.url, detail: error.description, refusedLink: error.isRefusedLink)
            }
        }
        guard let file = outcome.file else {
            throw HTTPClientError(.fileSystem, url: request.url, detail: "no download file")
        }
        return HTTPDownload(
            requestURL: request.url, url: outcome.effectiveURL, status: outcome.status, headers: outcome.headers,
            fileURL: URL(fileURLWithPath: file.path), byteCount: outcome.byteCount, metrics: outcome.metrics)
    }

    // MARK: Retries

    private func withRetries(_ request: HTTPRequest, makeSink: () throws(HTTPClientError) -> BodySink)
        async throws(HTTPClientError) -> TransferOutcome
    {
        let origin = try Origin(request.url)
        let policy = configuration.retryPolicy
        let attempts = request.method.isIdempotent ? policy.maximumAttempts : 1
        let timeouts = request.timeouts ?? configuration.timeouts
        // Time used so far: attempts as measured, waits as asked for (an injected clock
        // may not really sleep them).
        var spent = Duration.zero
        var attempt = 1
        // The stall limit of each attempt that stalled, to say them all when the last one
        // stalls too (three 15 s stalls are 45 s, not "nothing received for 15 s").
        var stalls: [Duration] = []
        while true {
            let delay: Duration
            let started = ContinuousClock.now
            let attemptTimeouts = Self.attemptTimeouts(timeouts, spent: spent)
            do {
                var outcome = try await perform(
                    request, origin: origin, timeouts: attemptTimeouts, sink: try makeSink())
                spent += ContinuousClock.now - started
                outcome.metrics.attempt = attempt
                guard attempt < attempts, policy.retryableStatuses.contains(outcome.status) else { return outcome }
                if let retryAfter = policy.retryAfter(outcome.headers["Retry-After"]) {
                    guard retryAfter <= policy.maximumRetryAfter else { return outcome }
                    delay = retryAfter
                } else {
                    delay = policy.backoff(afterAttempt: attempt)
                }
                // The server's wait (or the backoff) would end past the request's limit:
                // hand back its answer now rather than wait for a retry that cannot happen.
                guard Self.fits(delay, after: spent, in: timeouts) else { return outcome }
                outcome.discardFile()
                logger.debug("retrying after HTTP \(outcome.status)", metadata: ["url": "\(URLUserInfo.removed(from: request.url.absoluteString))", "delay": "\(delay)"])
            } catch {
                spent += ContinuousClock.now - started
                if error.code == .timedOut, error.timeout == .stall, let limit = StallWatch.limit(of: attemptTimeouts) {
                    stalls.append(limit)
                }
                guard attempt < attempts, error.isTransient else { throw Self.countingStalls(error, stalls, attempts: attempt) }
                delay = policy.backoff(afterAttempt: attempt)
                guard Self.fits(delay, after: spent, in: timeouts) else { throw Self.countingStalls(error, stalls, attempts: attempt) }
                logger.debug("retrying after \(error.code)", metadata: ["url": "\(URLUserInfo.removed(from: request.url.absoluteString))", "delay": "\(delay)"])
            }
            do {
                try await configuration.clock.sleep(for: delay)
            } catch {
                throw HTTPClientError(.cancelled, url: request.url)
            }
            spent += delay
            attempt += 1
        }
    }

    /// `error`, the last attempt's, saying every stall when more than one attempt stalled:
    /// "nothing received for 15.0 seconds on each of 3 attempts (45.0 seconds in all)".
    static func countingStalls(_ error: HTTPClientError, _ stalls: [Duration], attempts: Int) -> HTTPClientError {
        guard error.timeout == .stall, stalls.count > 1 else { return error }
        let total = stalls.reduce(Duration.zero, +)
        let limits = Set(stalls).count == 1 && stalls.count == attempts
            ? "\(stalls[0]) on each of \(attempts) attempts"
            : stalls.map { "\($0)" }.joined(separator: ", ") + " on \(stalls.count) of \(attempts) attempts"
        return HTTPClientError(
            error.code, url: error.url, status: error.status, curlCode: error.curlCode, curlMessage: error.curlMessage,
            timeout: error.timeout, detail: "nothing received for \(limits) (\(total) in all)")
    }

    /// Whether waiting `delay` after `spent` still leaves time for another attempt within
    /// ``HTTPTimeouts/overall``.
    static func fits(_ delay: Duration, after spent: Duration, in timeouts: HTTPTimeouts) -> Bool {
        guard let overall = timeouts.overall else { return true }
        return spent + delay < overall
    }

    /// `timeouts` for the next attempt: none of its limits outlasts what is left of
    /// ``HTTPTimeouts/overall`` (at least 1 ms).
    static func attemptTimeouts(_ timeouts: HTTPTimeouts, spent: Duration) -> HTTPTimeouts {
        guard let overall = timeouts.overall else { return timeouts }
        let left = max(overall - spent, .milliseconds(1))
        var limited = timeouts
        limited.total = min(timeouts.total, left)
        limited.connect = min(timeouts.connect, left)
        limited.stall = min(timeouts.stall, left)
        return limited
    }

    private func perform(_ request: HTTPRequest, origin: Origin, timeouts: HTTPTimeouts, sink: BodySink)
        async throws(HTTPClientError) -> TransferOutcome
    {
        let transfer = Transfer(
            id: nextID.add(1, ordering: .relaxed).oldValue,
            request: request,
            origin: origin,
            settings: TransferSettings(
                timeouts: timeouts,
                maximumBodySize: request.maximumBodySize ?? configuration.maximumBodySize,
                maximumRedirects: configuration.maximumRedirects,
                acceptEncoding: configuration.acceptEncoding,
                userAgent: configuration.userAgent,
                preferHTTP2: configuration.preferHTTP2,
                trustedCertificatesFile: configuration.trustedCertificatesFile,
                proxy: configuration.proxy.proxy(forHTTPS: origin.isHTTPS),
                noProxy: configuration.proxy.noProxy),
            sink: sink,
            bodyBuffers: bodyBuffers)
        if Task.isCancelled {
            transfer.finish(.failure(HTTPClientError(.cancelled, url: request.url)))
            throw HTTPClientError(.cancelled, url: request.url)
        }
        let engine = self.engine
        // An unsafe continuation: `Transfer.finish` resumes it exactly once (it clears
        // `completion` as it does), and the checked kind costs an allocation per request.
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                transfer.completion = continuation
                engine.submit(transfer)
            }
        } onCancel: {
            engine.cancel(transfer)
        }
        return try result.get()
    }
}
