import Foundation
import InMemoryTracing
import MetricsTestKit
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Tracing

/// The in-memory tracer of swift-distributed-tracing, propagating its span contexts as a
/// W3C tracer does: `traceparent: 00-<trace id>-<span id>-01`, with ids of W3C length
/// (32 and 16 lower-case hex digits). Spans are recorded by the wrapped ``InMemoryTracer``.
struct W3CInMemoryTracer: Tracer {
    typealias Span = InMemorySpan
    let recorder = InMemoryTracer(idGenerator: Self.hexIDs)

    static var hexIDs: InMemoryTracer.IDGenerator {
        InMemoryTracer.IDGenerator(
            nextTraceID: { hex(UInt64.random(in: 1...UInt64.max)) + hex(UInt64.random(in: 1...UInt64.max)) },
            nextSpanID: { hex(UInt64.random(in: 1...UInt64.max)) })
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func activeSpan(identifiedBy context: ServiceContext) -> InMemorySpan? { recorder.activeSpan(identifiedBy: context) }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}
}

enum TelemetryTestSupport {
    /// The sum of the counters named `label` whose dimensions include every one of `dimensions`.
    static func count(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)]) -> Int64 {
        metrics.counters.filter { counter in
            counter.label == label && dimensions.allSatisfy { wanted in counter.dimensions.contains { $0 == wanted } }
        }.reduce(0) { $0 + $1.totalValue }
    }

    /// Every dimension value of every metric made so far.
    static func dimensionValues(_ metrics: TestMetrics) -> [String] {
        metrics.counters.flatMap(\.dimensions).map(\.1) + metrics.timers.flatMap(\.dimensions).map(\.1)
            + metrics.recorders.flatMap(\.dimensions).map(\.1)
    }

    /// A server, a client without retries (or with `retries`), and a fresh cache root.
    static func withServer<T>(
        _ configuration: FixtureServerConfiguration = FixtureServerConfiguration(),
        retryPolicy: RetryPolicy = .never,
        _ body: (RunningFixtureServer, HTTPClient, URL) async throws -> T
    ) async throws -> T {
        let root = FeedTestSupport.temporaryDirectory("telemetry")
        defer { try? FileManager.default.removeItem(at: root) }
        return try await RunningFixtureServer.withRunning(configuration) { server in
            try await HTTPClient.withHTTPClient(configuration: .init(retryPolicy: retryPolicy)) { client in
                try await body(server, client, root)
            }
        }
    }

    static func imageURL(_ server: RunningFixtureServer, _ name: String) -> URL {
        server.baseURL.appendingPathComponent("images").appendingPathComponent(name)
    }
}
