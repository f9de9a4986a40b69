import Foundation
import PostFeedRedis
import InMemoryTracing
import MetricsTestKit
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing
import Tracing

/// Issue 18: the shared tier (a real `redis-server`) in the metrics and spans — hits and
/// misses in layer `shared`, lease waits, and failures when Redis is gone.
@Suite("Metrics and spans of the shared tier (Redis)")
struct SharedTierTelemetryTests {
    typealias Support = TelemetryTestSupport

    private static func instance(
        _ client: HTTPClient, root: URL, _ name: String, shared: RedisCache, telemetry: FeedTelemetry
    ) throws -> ImagePipeline {
        let disk = try DiskCache(directory: root.appendingPathComponent(name).appendingPathComponent("ImageCache"))
        return ImagePipeline(loader: client, disk: disk, shared: shared, telemetry: telemetry)
    }

    @Test("a second instance is answered by the shared tier: a shared hit, its span says layer shared")
    func sharedHit() async throws {
        try await SharedCacheSupport.withSetUp { server, client, redis, root in
            let metrics = TestMetrics()
            let tracer = W3CInMemoryTracer()
            let telemetry = FeedTelemetry(metricsFactory: metrics, tracer: tracer)
            let url = Support.imageURL(server, "img-006.png")
            let image = [("kind", "image")]
            _ = try await Self.instance(client, root: root, "a", shared: try SharedCacheSupport.shared(redis), telemetry: telemetry)
                .image(for: url)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", image + [("layer", "shared")]) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", image + [("layer", "network")]) == 1)

            _ = try await Self.instance(client, root: root, "b", shared: try SharedCacheSupport.shared(redis), telemetry: telemetry)
                .image(for: url)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", image + [("layer", "shared")]) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", image + [("layer", "shared")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", image) == 1)
            #expect(try metrics.expectTimer("postfeed_lookup_duration", image + [("layer", "shared")]).values.count == 2)
            let imageSpan = tracer.recorder.finishedSpans.last { $0.operationName == "postfeed.image.load" }
            let span = try #require(imageSpan)
            #expect(span.attributes.get("postfeed.layer") == .string("shared"))
            #expect(span.attributes.get("postfeed.attempts") == .int64(0))
        }
    }

    @Test("two instances missing one image at once: one origin fetch, the other's wait on the lease counted")
    func leaseWaits() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(300)))
        try await SharedCacheSupport.withSetUp(server: slow) { server, client, redis, root in
            let metrics = TestMetrics()
            let telemetry = FeedTelemetry(metricsFactory: metrics)
            let first = try Self.instance(client, root: root, "a", shared: try SharedCacheSupport.shared(redis), telemetry: telemetry)
            let second = try Self.instance(client, root: root, "b", shared: try SharedCacheSupport.shared(redis), telemetry: telemetry)
            let url = Support.imageURL(server, "img-007.jpg")
            async let one = first.image(for: url)
            async let two = second.image(for: url)
            _ = try await (one, two)
            #expect(SharedCacheSupport.images(server) == 1)
            #expect(Support.count(metrics, "postfeed_shared_lease_waits_total", [("kind", "image")]) == 1)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", [("kind", "image"), ("layer", "shared")]) == 1)
        }
    }

    @Test("Redis gone: the load is answered by the network and the tier's failures are counted")
    func redisDown() async throws {
        try await SharedCacheSupport.withSetUp { server, client, redis, root in
            let metrics = TestMetrics()
            let warnings = SharedCacheSupport.Warnings()
            let shared = try SharedCacheSupport.shared(redis, warnings: warnings)
            redis.stop()
            let pipeline = try Self.instance(client, root: root, "a", shared: shared, telemetry: FeedTelemetry(metricsFactory: metrics))
            _ = try await pipeline.image(for: Support.imageURL(server, "img-008.jpg"))
            #expect(Support.count(metrics, "postfeed_loads_total", [("kind", "image"), ("layer", "network")]) == 1)
            #expect(Support.count(metrics, "postfeed_shared_errors_total", [("kind", "image"), ("reason", "unavailable")]) >= 1)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", [("kind", "image"), ("layer", "shared")]) == 1)
        }
    }
}
