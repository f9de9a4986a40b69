import Foundation
import InMemoryTracing
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing
import Tracing

/// Issue 18: a span per page and image load (swift-distributed-tracing, `InMemoryTracing`)
/// with the layer that answered, the attempts and the status, and the span's context in
/// the request the fixture server received (`traceparent`).
@Suite("Spans of page and image loads, and traceparent on the wire")
struct LoadTracingTests {
    typealias Support = TelemetryTestSupport

    private static func spans(_ tracer: W3CInMemoryTracer, named name: String) -> [FinishedInMemorySpan] {
        tracer.recorder.finishedSpans.filter { $0.operationName == name }
    }

    @Test("an image load from the network: one span with layer, attempts, status; its trace id in the request's traceparent")
    func imageFromNetwork() async throws {
        try await Support.withServer { server, client, root in
            let tracer = W3CInMemoryTracer()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(tracer: tracer))
            let url = Support.imageURL(server, "img-001.jpg")
            _ = try await pipeline.image(for: url)

            let spans = Self.spans(tracer, named: "postfeed.image.load")
            try #require(spans.count == 1)
            let span = spans[0]
            #expect(span.attributes.get("postfeed.layer") == .string("network"))
            #expect(span.attributes.get("postfeed.kind") == .string("image"))
            #expect(span.attributes.get("postfeed.attempts") == .int64(1))
            #expect(span.attributes.get("http.response.status_code") == .int64(200))
            #expect(span.errors.isEmpty)

            let imageRequest = server.recordedRequests.last { $0.path == url.path }
            let request = try #require(imageRequest)
            let traceparent = try #require(request.headers["traceparent"])
            #expect(traceparent == "00-\(span.traceID)-\(span.spanID)-01")
            #expect(span.traceID.count == 32)

            // A memory hit: a span of its own, answered by memory, no attempt, no request.
            _ = try await pipeline.image(for: url)
            let hit = try #require(Self.spans(tracer, named: "postfeed.image.load").last)
            #expect(hit.attributes.get("postfeed.layer") == .string("memory"))
            #expect(hit.attributes.get("postfeed.attempts") == .int64(0))
            #expect(hit.attributes.get("http.response.status_code") == nil)
            #expect(server.requestCount(pathPrefix: "/images/") == 1)
        }
    }

    @Test("a load inside a caller's span is its child: the request carries the caller's trace id")
    func childOfTheCallersSpan() async throws {
        try await Support.withServer { server, client, root in
            let tracer = W3CInMemoryTracer()
            let cache = try DiskCache(directory: root.appendingPathComponent("PageCache"))
            let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
            let repository = try HTTPPostRepository(
                backend: backend, pageSize: 10, loader: client, pageCache: cache, telemetry: FeedTelemetry(tracer: tracer))
            let parentTrace = try await tracer.withSpan("service.request") { span in
                _ = try await repository.page(.number(2), cachePolicy: .useCache, priority: .high)
                return span.context.inMemorySpanContext?.traceID
            }
            let page = try #require(Self.spans(tracer, named: "postfeed.page.load").first)
            #expect(page.traceID == parentTrace)
            #expect(page.parentSpanID != nil)
            #expect(page.attributes.get("postfeed.kind") == .string("page"))
            #expect(page.attributes.get("postfeed.layer") == .string("network"))
            #expect(page.attributes.get("http.response.status_code") == .int64(200))
            let pageRequest = server.recordedRequests.last { $0.path == "/api/posts" }
            let request = try #require(pageRequest)
            #expect(request.headers["traceparent"] == "00-\(page.traceID)-\(page.spanID)-01")

            // The same page from a new repository: answered by the disk layer, nothing sent.
            let again = try HTTPPostRepository(
                backend: backend, pageSize: 10, loader: client, pageCache: cache, telemetry: FeedTelemetry(tracer: tracer))
            _ = try await again.page(.number(2), cachePolicy: .useCache, priority: .high)
            let cached = try #require(Self.spans(tracer, named: "postfeed.page.load").last)
            #expect(cached.attributes.get("postfeed.layer") == .string("disk"))
            #expect(cached.attributes.get("postfeed.attempts") == .int64(0))
            #expect(server.requestCount(path: "/api/posts") == 1)
        }
    }

    @Test("a retried request: the span counts two attempts")
    func attempts() async throws {
        let failing = FixtureServerConfiguration(faults: FaultInjection(failFirst: 1, failFirstFault: .status(503)))
        let retry = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20))
        try await Support.withServer(failing, retryPolicy: retry) { server, client, root in
            let tracer = W3CInMemoryTracer()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(tracer: tracer))
            _ = try await pipeline.image(for: Support.imageURL(server, "img-005.jpg"))
            let span = try #require(Self.spans(tracer, named: "postfeed.image.load").first)
            #expect(span.attributes.get("postfeed.attempts") == .int64(2))
            #expect(span.attributes.get("http.response.status_code") == .int64(200))
            // Both attempts carried the span's context.
            let sent = server.recordedRequests.filter { $0.path.hasPrefix("/images/") }
            #expect(sent.count == 2)
            let traceparent = "00-\(span.traceID)-\(span.spanID)-01"
            let allCarryIt = sent.allSatisfy { $0.headers["traceparent"] == traceparent }
            let sentHeaders = sent.map { $0.headers["traceparent"] ?? "none" }
            #expect(allCarryIt, "\(sentHeaders)")
        }
    }

    @Test("a failed load records its error on the span, with the status")
    func errors() async throws {
        try await Support.withServer { server, client, root in
            let tracer = W3CInMemoryTracer()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(tracer: tracer))
            await #expect(throws: ImagePipelineError.self) {
                _ = try await pipeline.image(for: Support.imageURL(server, "no-such-image.jpg"))
            }
            let span = try #require(Self.spans(tracer, named: "postfeed.image.load").first)
            #expect(span.errors.count == 1)
            #expect(span.errors.first?.error is ImagePipelineError)
            #expect(span.status?.code == .error)
            #expect(span.attributes.get("http.response.status_code") == .int64(404))
        }
    }
}
