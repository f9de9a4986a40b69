import Foundation
import MetricsTestKit
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// Issue 18: swift-metrics counters, timers and gauges of the cached-HTTP path, read from
/// `MetricsTestKit`'s `TestMetrics` passed in the telemetry (no global bootstrap, so the
/// suites running beside this one in the process count nothing here).
@Suite("Metrics of page and image loads (swift-metrics, MetricsTestKit)")
struct LoadMetricsTests {
    typealias Support = TelemetryTestSupport

    @Test("an image load counts where it was answered: network (a miss and an origin fetch), then memory, then disk")
    func imageLayers() async throws {
        try await Support.withServer { server, client, root in
            let metrics = TestMetrics()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(metricsFactory: metrics))
            let url = Support.imageURL(server, "img-001.jpg")
            let image = [("kind", "image")]

            // Given an empty cache, when an image is loaded: it misses memory and disk and
            // is fetched from the origin.
            let first = try await pipeline.image(for: url)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", image + [("layer", "memory")]) == 1)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", image + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", image) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", image + [("layer", "network")]) == 1)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", image) == 0)
            #expect(try metrics.expectGauge("postfeed_memory_cache_bytes", image).lastValue == Double(first.data.count))
            #expect(try metrics.expectGauge("postfeed_memory_cache_entries", image).lastValue == 1)
            #expect((try metrics.expectGauge("postfeed_disk_cache_bytes", image).lastValue ?? 0) >= Double(first.data.count))

            // Then again: a memory hit, no request.
            _ = try await pipeline.image(for: url)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", image + [("layer", "memory")]) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", image + [("layer", "memory")]) == 1)

            // With the memory layer cleared: a disk hit, still one origin fetch.
            pipeline.removeAllFromMemory()
            _ = try await pipeline.image(for: url)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", image + [("layer", "memory")]) == 2)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", image + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", image + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", image) == 1)
            #expect(server.requestCount(pathPrefix: "/images/") == 1)

            #expect(try metrics.expectTimer("postfeed_load_duration", image).values.count == 3)
            #expect(try metrics.expectTimer("postfeed_lookup_duration", image + [("layer", "memory")]).values.count == 3)
            #expect(try metrics.expectTimer("postfeed_lookup_duration", image + [("layer", "disk")]).values.count == 2)
            // Dimensions name layers and kinds, never a URL or a host.
            let values = Support.dimensionValues(metrics)
            #expect(!values.isEmpty)
            let host = server.baseURL.host ?? "127.0.0.1"
            let noURLs = values.allSatisfy { !$0.contains("http") && !$0.contains(host) && !$0.contains("/") }
            #expect(noURLs, "a dimension names a URL or host: \(values)")
        }
    }

    @Test("an expired image revalidated by a 304 counts a revalidation, answered by the network")
    func revalidation() async throws {
        try await Support.withServer(FixtureServerConfiguration(imageMaxAge: 0)) { server, client, root in
            let metrics = TestMetrics()
            let telemetry = FeedTelemetry(metricsFactory: metrics)
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let url = Support.imageURL(server, "img-003.png")
            _ = try await ImagePipeline(loader: client, disk: disk, telemetry: telemetry).image(for: url)
            #expect(Support.count(metrics, "postfeed_revalidations_total", [("kind", "image")]) == 0)

            // A new pipeline (empty memory) finds the disk entry expired: If-None-Match, 304.
            let second = try await ImagePipeline(loader: client, disk: disk, telemetry: telemetry).image(for: url)
            #expect(second.source == .revalidated)
            #expect(Support.count(metrics, "postfeed_revalidations_total", [("kind", "image")]) == 1)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", [("kind", "image"), ("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", [("kind", "image")]) == 2)
            #expect(Support.count(metrics, "postfeed_loads_total", [("kind", "image"), ("layer", "network")]) == 2)
        }
    }

    @Test("pages count under kind page: a cold page from the network, the same page from disk in a new repository")
    func pages() async throws {
        try await Support.withServer { server, client, root in
            let metrics = TestMetrics()
            let telemetry = FeedTelemetry(metricsFactory: metrics)
            let cache = try DiskCache(directory: root.appendingPathComponent("PageCache"))
            let backend = try BackendDescription.preset("postfeed", baseURL: server.baseURL)
            let page = [("kind", "page")]
            let first = try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache, telemetry: telemetry)
            _ = try await first.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(Support.count(metrics, "postfeed_cache_misses_total", page + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", page) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", page + [("layer", "network")]) == 1)

            let second = try HTTPPostRepository(backend: backend, pageSize: 10, loader: client, pageCache: cache, telemetry: telemetry)
            let cached = try await second.page(.number(1), cachePolicy: .useCache, priority: .high)
            #expect(cached.isFromCache)
            #expect(Support.count(metrics, "postfeed_cache_hits_total", page + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", page + [("layer", "disk")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", page) == 1)
            #expect(Support.count(metrics, "postfeed_loads_total", [("kind", "image")]) == 0)

            // A page past the end: a failure, counted as one.
            _ = try? await second.page(.number(999), cachePolicy: .useCache, priority: .high)
            #expect(Support.count(metrics, "postfeed_load_failures_total", page) == 1)
        }
    }

    @Test("concurrent loads of one image: one origin fetch, the others counted as coalesced waits (or cache hits)")
    func coalescedWaits() async throws {
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(200)))
        try await Support.withServer(slow) { server, client, root in
            let metrics = TestMetrics()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(metricsFactory: metrics))
            let url = Support.imageURL(server, "img-002.jpg")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { _ = try await pipeline.image(for: url) } }
                try await group.waitForAll()
            }
            let image = [("kind", "image")]
            #expect(server.requestCount(pathPrefix: "/images/") == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", image) == 1)
            let coalesced = Support.count(metrics, "postfeed_coalesced_waits_total", image)
            let memoryHits = Support.count(metrics, "postfeed_cache_hits_total", image + [("layer", "memory")])
            // A load starting between the store to disk and the store to memory finds it on disk.
            let diskHits = Support.count(metrics, "postfeed_cache_hits_total", image + [("layer", "disk")])
            #expect(coalesced >= 1)
            #expect(coalesced + memoryHits + diskHits == 9)
        }
    }

    @Test("a request retried after a 503 counts the retry")
    func retries() async throws {
        let failing = FixtureServerConfiguration(faults: FaultInjection(failFirst: 1, failFirstFault: .status(503)))
        let retry = RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20))
        try await Support.withServer(failing, retryPolicy: retry) { server, client, root in
            let metrics = TestMetrics()
            let disk = try DiskCache(directory: root.appendingPathComponent("ImageCache"))
            let pipeline = ImagePipeline(loader: client, disk: disk, telemetry: FeedTelemetry(metricsFactory: metrics))
            _ = try await pipeline.image(for: Support.imageURL(server, "img-004.jpg"))
            #expect(server.requestCount(pathPrefix: "/images/") == 2)
            #expect(Support.count(metrics, "postfeed_retries_total", [("kind", "image")]) == 1)
            #expect(Support.count(metrics, "postfeed_origin_fetches_total", [("kind", "image")]) == 1)
        }
    }
}
