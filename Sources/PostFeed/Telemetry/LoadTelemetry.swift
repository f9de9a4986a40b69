import CoreMetrics
import Instrumentation
import PostFeedHTTP
import Synchronization
import Tracing

/// A ``FeedTelemetry`` resolved once for a loader: its metric objects, its tracer and
/// the instrument that injects span contexts into requests.
final class LoadTelemetry: Sendable {
    let metrics: LoadMetrics
    let tracer: any Tracer
    let instrument: any Instrument
    let sharedLedger = SharedTierLedger()
    /// Whether spans are started and contexts injected: not when neither a tracer nor an
    /// instrument is bootstrapped (then a load pays no task-local read, no span).
    let traces: Bool

    init(_ configuration: FeedTelemetry = .system) {
        metrics = LoadMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        tracer = configuration.tracer ?? InstrumentationSystem.tracer
        instrument = configuration.tracer ?? InstrumentationSystem.instrument
        traces = !(tracer is NoOpTracer && instrument is NoOpInstrument)
    }

    /// Span attribute names.
    enum Attribute {
        static let kind = "postfeed.kind"
        static let layer = "postfeed.layer"
        static let attempts = "postfeed.attempts"
        /// OpenTelemetry's semantic convention for the response status.
        static let status = "http.response.status_code"
    }

    /// Starts the span of one load (`postfeed.page.load`, `postfeed.image.load`), a child
    /// of the task's current context.
    /// `nil` when nothing traces (see ``traces``).
    func startSpan(_ kind: LoadKind) -> (any Span)? {
        guard traces else { return nil }
        let name = kind == .page ? "postfeed.page.load" : "postfeed.image.load"
        return tracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: .client)
    }

    /// Ends `span` with what the load did: the layer that answered, the attempts, the
    /// status, and `error` recorded when it failed.
    func end(_ span: (any Span)?, kind: LoadKind, trail: LoadTrail, error: (any Error)? = nil) {
        guard let span else { return }
        guard span.isRecording else {
            span.end()
            return
        }
        span.updateAttributes { attributes in
            attributes[Attribute.kind] = kind.name
            if let layer = trail.layer { attributes[Attribute.layer] = layer.name }
            attributes[Attribute.attempts] = trail.attempts
            if let status = trail.status { attributes[Attribute.status] = status }
        }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// Writes `context` into `headers` through the instrument (a W3C tracer writes
    /// `traceparent`, and `tracestate` when it has one).
    func inject(_ context: ServiceContext, into headers: inout HTTPHeaders) {
        instrument.inject(context, into: &headers, using: HTTPHeadersInjector())
    }
}

/// Writes propagation fields into a request's header list, replacing a field of the same name.
struct HTTPHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers[key] = value
    }
}

/// What one load learnt about how it was answered, for its span.
struct LoadTrail: Sendable {
    /// The layer that answered; `nil` while none has (or the load failed before any did).
    var layer: CacheLayer?
    /// HTTP attempts made (0 when no request was sent).
    var attempts = 0
    /// The origin's status, when it answered.
    var status: Int?
}

/// Collects a flight's ``LoadTrail`` while it runs. A task-local, because the transfer's
/// steps (the shared tier, the origin) run in the flight's own task, through functions
/// that return only the outcome shared by every caller.
final class LoadRecorder: Sendable {
    @TaskLocal static var current: LoadRecorder?

    private let state = Mutex(LoadTrail())

    var trail: LoadTrail { state.withLock { $0 } }

    func record(_ change: (inout LoadTrail) -> Void) {
        state.withLock { change(&$0) }
    }
}
