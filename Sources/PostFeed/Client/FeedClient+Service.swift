import ServiceLifecycle

/// A client is a swift-service-lifecycle `Service`: put it in the service's `ServiceGroup`
/// beside the HTTP server, and graceful shutdown (SIGTERM) drains it.
///
/// ```swift
/// let client = try FeedClient(configuration)          // no thread started yet
/// let group = ServiceGroup(configuration: .init(
///     services: [.init(service: client), .init(service: app)],  // shut down in reverse: app first
///     gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
extension FeedClient: Service {
    /// Starts the HTTP engine's thread (building the client started none) and waits until
    /// graceful shutdown or cancellation; then drains the client as ``shutdown()`` does:
    /// background prefetches are cancelled, transfers under way are awaited — a request a
    /// handler still waits on gets its answer, not `.shutdown` — and the caches' write
    /// queues are flushed before this returns.
    public func run() async throws {
        http.start()
        // Cancellation ends the wait as graceful shutdown does: either way the client drains.
        try? await gracefulShutdown()
        await shutdown()
    }
}
