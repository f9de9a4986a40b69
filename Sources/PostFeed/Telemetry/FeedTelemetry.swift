import CoreMetrics
import Instrumentation
import Tracing

/// Where PostFeed reports what its loads did: swift-metrics counters, timers and gauges
/// (`LoadMetrics` lists them), and a swift-distributed-tracing span per page and image
/// load whose context is injected into the outgoing request (W3C `traceparent` with a W3C
/// tracer).
///
/// Each part defaults to the process-wide system — `MetricsSystem.factory`,
/// `InstrumentationSystem.tracer` and `InstrumentationSystem.instrument` —, read once when
/// the client (or pipeline, or repository) is built: bootstrap those first. A service
/// hosting several clients, or a test running beside others in one process, passes its own.
///
/// ```swift
/// let metrics = TestMetrics()              // or a Prometheus/StatsD factory
/// var configuration = FeedClient.Configuration(backend: backend, cacheLocation: location)
/// configuration.telemetry = FeedTelemetry(metricsFactory: metrics, tracer: myTracer)
/// ```
public struct FeedTelemetry: Sendable {
    /// Makes the metric objects; `nil` uses `MetricsSystem.factory` (a no-op until
    /// `MetricsSystem.bootstrap` is called).
    public var metricsFactory: (any MetricsFactory)?
    /// Starts the spans and injects their context into requests; `nil` uses
    /// `InstrumentationSystem.tracer` for spans and `InstrumentationSystem.instrument` for
    /// the injection (no-ops until `InstrumentationSystem.bootstrap` is called).
    public var tracer: (any Tracer)?

    /// Telemetry through `metricsFactory` and `tracer`, each defaulting to the global system.
    public init(metricsFactory: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil) {
        self.metricsFactory = metricsFactory
        self.tracer = tracer
    }

    /// The global systems, as bootstrapped when the client is built.
    public static var system: FeedTelemetry { FeedTelemetry() }
}

/// What a load is for: a metric dimension (`kind`) and a span attribute (`postfeed.kind`).
enum LoadKind: Int, CaseIterable, Sendable {
    case page
    case image

    var name: String {
        switch self {
        case .page: "page"
        case .image: "image"
        }
    }
}

/// The layer that answers a load, or is looked in: a metric dimension (`layer`) and a
/// span attribute (`postfeed.layer`).
enum CacheLayer: Int, CaseIterable, Sendable {
    case memory
    case disk
    /// The shared tier (Redis).
    case shared
    /// The origin, over HTTP.
    case network

    var name: String {
        switch self {
        case .memory: "memory"
        case .disk: "disk"
        case .shared: "shared"
        case .network: "network"
        }
    }

    /// The layers that are caches (hits and misses are counted for these).
    static let caches: [CacheLayer] = [.memory, .disk, .shared]
}
