import CoreMetrics
import Synchronization

/// `--verbose`'s per-run summary: a swift-metrics factory of the tool's own that adds the
/// library's counters up in process (by name, over every dimension), and at exit one line
/// on stderr:
///
///     postfeed: cache: memory 3 hits, disk 12 hits, network 5 fetches (2 revalidated 304),
///       requests 5 started, 5 finished, 0 cancelled, 1 retry
///
/// A run that drew previews adds `thumbnails 1 hit, 0 misses, 0 decodes`.
///
/// Timers, gauges and meters are not summarized (their handlers do nothing).
final class RunSummaryMetrics: MetricsFactory {
    private let totals = Mutex<[String: Int64]>([:])

    /// The total of the counters named `label`, over every dimension.
    func total(_ label: String) -> Int64 { totals.withLock { $0[label] ?? 0 } }

    /// The total of the counters named `label` with the dimension `name` = `value`.
    func total(_ label: String, _ name: String, _ value: String) -> Int64 {
        totals.withLock { $0[Self.key(label, [(name, value)])] ?? 0 }
    }

    /// The line printed at exit (see the type).
    func summary() -> String {
        let hits = "postfeed_cache_hits_total"
        var parts = [
            "memory \(counted(total(hits, "layer", "memory"), "hit"))",
            "disk \(counted(total(hits, "layer", "disk"), "hit"))",
        ]
        let sharedHits = total(hits, "layer", "shared")
        let sharedMisses = total("postfeed_cache_misses_total", "layer", "shared")
        if sharedHits + sharedMisses > 0 { parts.append("shared \(counted(sharedHits, "hit")), \(sharedMisses) missed") }
        let fetches = total("postfeed_origin_fetches_total")
        let revalidated = total("postfeed_revalidations_total")
        parts.append("network \(counted(fetches, "fetch", "fetches"))" + (revalidated > 0 ? " (\(revalidated) revalidated 304)" : ""))
        // Every request sent ends finished (answered or failed) or cancelled; a run that
        // exits cancels none it started (issue 29).
        let ends = "postfeed_origin_request_ends_total"
        parts.append("requests \(fetches) started, \(total(ends, "result", "finished")) finished, "
                     + "\(total(ends, "result", "cancelled")) cancelled")
        let extras: [(String, String, String)] = [
            ("postfeed_retries_total", "retry", "retries"),
            ("postfeed_coalesced_waits_total", "coalesced wait", "coalesced waits"),
            ("postfeed_shared_lease_waits_total", "lease wait", "lease waits"),
            ("postfeed_shared_errors_total", "shared-tier error", "shared-tier errors"),
            ("postfeed_load_failures_total", "failed load", "failed loads"),
        ]
        for (label, one, many) in extras where total(label) > 0 {
            parts.append(counted(total(label), one, many))
        }
        // Previews drawn or read back: the thumbnail cache, and the decodes it saved.
        let thumbnailHits = total("postfeed_thumbnail_lookups_total", "result", "hit")
        let thumbnailMisses = total("postfeed_thumbnail_lookups_total", "result", "miss")
        if thumbnailHits + thumbnailMisses > 0 {
            parts.append("thumbnails \(counted(thumbnailHits, "hit")), \(counted(thumbnailMisses, "miss", "misses")), "
                         + counted(total("postfeed_image_decodes_total"), "decode"))
        }
        return "cache: " + parts.joined(separator: ", ")
    }

    private static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        ([label] + dimensions.map { "\($0.0)=\($0.1)" }).joined(separator: "\u{1F}")
    }

    fileprivate func add(_ amount: Int64, to keys: [String]) {
        totals.withLock { totals in
            for key in keys { totals[key, default: 0] &+= amount }
        }
    }

    // MARK: MetricsFactory

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        // One total per label, and one per label and single dimension.
        SummedCounter(factory: self, keys: [label] + dimensions.map { Self.key(label, [$0]) })
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { NOOPMetricsHandler.instance }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
}

/// A counter adding into a ``RunSummaryMetrics``' totals.
private final class SummedCounter: CounterHandler {
    let factory: RunSummaryMetrics
    let keys: [String]

    init(factory: RunSummaryMetrics, keys: [String]) {
        self.factory = factory
        self.keys = keys
    }

    func increment(by amount: Int64) { factory.add(amount, to: keys) }
    func reset() {}
}
