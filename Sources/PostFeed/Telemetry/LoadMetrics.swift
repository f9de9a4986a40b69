import CoreMetrics
import Dispatch

/// The metrics of the cached-HTTP path and the image pipeline, made once per loader so a
/// load only increments objects that already exist (with no backend bootstrapped, each is a
/// call into swift-metrics' no-op handler).
///
/// Names and dimensions (never a URL, a host or a key):
///
/// | name | type | dimensions | counts |
/// |---|---|---|---|
/// | `postfeed_loads_total` | counter | `kind`, `layer` | loads answered, by the layer that answered (`memory`, `disk`, `shared`, `network`) |
/// | `postfeed_load_failures_total` | counter | `kind` | loads that ended in an error (no answer, an error status, a body that is unusable); cancelled loads are not counted |
/// | `postfeed_cache_hits_total` | counter | `kind`, `layer` | lookups that found an entry in `memory`, `disk` or `shared` (a `shared` load that found it after waiting on another instance's lease counts one miss and one hit) |
/// | `postfeed_cache_misses_total` | counter | `kind`, `layer` | lookups that found none there |
/// | `postfeed_origin_fetches_total` | counter | `kind` | requests sent to the origin (one per transfer) |
/// | `postfeed_origin_request_ends_total` | counter | `kind`, `result` | requests to the origin that ended: `finished` (answered, or failed) or `cancelled` |
/// | `postfeed_revalidations_total` | counter | `kind` | `304 Not Modified` answers |
/// | `postfeed_retries_total` | counter | `kind` | extra attempts the HTTP client made |
/// | `postfeed_coalesced_waits_total` | counter | `kind` | loads that joined a transfer already under way |
/// | `postfeed_shared_lease_waits_total` | counter | `kind` | waits on another instance's fetch lease |
/// | `postfeed_shared_errors_total` | counter | `kind`, `reason` | shared-tier commands that failed (`unavailable`, `full`, `error`) |
/// | `postfeed_load_duration` | timer | `kind` | a whole load, whichever layer answered |
/// | `postfeed_lookup_duration` | timer | `kind`, `layer` | one lookup in `memory`, `disk` or `shared` |
/// | `postfeed_memory_cache_bytes` | gauge | `kind` | bytes in the image memory layer |
/// | `postfeed_memory_cache_entries` | gauge | `kind` | images in the memory layer |
/// | `postfeed_disk_cache_bytes` | gauge | `kind` | bytes in the disk layer (after each write) |
final class LoadMetrics: Sendable {
    /// The metric names, documented in the README's "Metrics and tracing".
    enum Name {
        static let loads = "postfeed_loads_total"
        static let failures = "postfeed_load_failures_total"
        static let hits = "postfeed_cache_hits_total"
        static let misses = "postfeed_cache_misses_total"
        static let originFetches = "postfeed_origin_fetches_total"
        static let originRequestEnds = "postfeed_origin_request_ends_total"
        static let revalidations = "postfeed_revalidations_total"
        static let retries = "postfeed_retries_total"
        static let coalescedWaits = "postfeed_coalesced_waits_total"
        static let leaseWaits = "postfeed_shared_lease_waits_total"
        static let sharedErrors = "postfeed_shared_errors_total"
        static let loadDuration = "postfeed_load_duration"
        static let lookupDuration = "postfeed_lookup_duration"
        static let memoryBytes = "postfeed_memory_cache_bytes"
        static let memoryEntries = "postfeed_memory_cache_entries"
        static let diskBytes = "postfeed_disk_cache_bytes"
    }

    /// Why a shared-tier command failed: the `reason` dimension.
    enum SharedFailure: Int, CaseIterable {
        case unavailable, full, error

        var name: String {
            switch self {
            case .unavailable: "unavailable"
            case .full: "full"
            case .error: "error"
            }
        }
    }

    /// One kind's metrics: a class, so a load retains one object, not every field (a
    /// struct copy of all these arrays cost ~0.3 µs per call).
    private final class PerKind: Sendable {
        let loads: [Counter]  // by CacheLayer
        let hits: [Counter]  // by CacheLayer.caches (memory, disk, shared: the first raw values)
        let misses: [Counter]
        let lookupDuration: [Timer]
        let failures: Counter
        let originFetches: Counter
        let originFinished: Counter
        let originCancelled: Counter
        let revalidations: Counter
        let retries: Counter
        let coalescedWaits: Counter
        let leaseWaits: Counter
        let sharedErrors: [Counter]  // by SharedFailure
        let loadDuration: Timer
        let memoryBytes: Gauge
        let memoryEntries: Gauge
        let diskBytes: Gauge

        init(_ kind: LoadKind, factory: any MetricsFactory) {
            let dimension = ("kind", kind.name)
            func layered(_ layer: CacheLayer) -> [(String, String)] { [dimension, ("layer", layer.name)] }
            loads = CacheLayer.allCases.map { Counter(label: Name.loads, dimensions: layered($0), factory: factory) }
            hits = CacheLayer.caches.map { Counter(label: Name.hits, dimensions: layered($0), factory: factory) }
            misses = CacheLayer.caches.map { Counter(label: Name.misses, dimensions: layered($0), factory: factory) }
            lookupDuration = CacheLayer.caches.map {
                Timer(label: Name.lookupDuration, dimensions: layered($0), factory: factory)
            }
            failures = Counter(label: Name.failures, dimensions: [dimension], factory: factory)
            originFetches = Counter(label: Name.originFetches, dimensions: [dimension], factory: factory)
            originFinished = Counter(label: Name.originRequestEnds, dimensions: [dimension, ("result", "finished")], factory: factory)
            originCancelled = Counter(label: Name.originRequestEnds, dimensions: [dimension, ("result", "cancelled")], factory: factory)
            revalidations = Counter(label: Name.revalidations, dimensions: [dimension], factory: factory)
            retries = Counter(label: Name.retries, dimensions: [dimension], factory: factory)
            coalescedWaits = Counter(label: Name.coalescedWaits, dimensions: [dimension], factory: factory)
            leaseWaits = Counter(label: Name.leaseWaits, dimensions: [dimension], factory: factory)
            sharedErrors = SharedFailure.allCases.map {
                Counter(label: Name.sharedErrors, dimensions: [dimension, ("reason", $0.name)], factory: factory)
            }
            loadDuration = Timer(label: Name.loadDuration, dimensions: [dimension], factory: factory)
            memoryBytes = Gauge(label: Name.memoryBytes, dimensions: [dimension], factory: factory)
            memoryEntries = Gauge(label: Name.memoryEntries, dimensions: [dimension], factory: factory)
            diskBytes = Gauge(label: Name.diskBytes, dimensions: [dimension], factory: factory)
        }
    }

    private let kinds: [PerKind]
    /// Whether durations are measured: not with the no-op factory (nothing bootstrapped),
    /// where reading the clock would be most of a memory hit's telemetry cost.
    private let measuresTime: Bool

    init(factory: any MetricsFactory) {
        kinds = LoadKind.allCases.map { PerKind($0, factory: factory) }
        measuresTime = !(factory is NOOPMetricsHandler)
    }

    /// A memory hit: the lookup and the whole load, timed with one clock reading.
    func memoryHit(_ kind: LoadKind, started: UInt64) {
        let metrics = kinds[kind.rawValue]
        let elapsed = elapsed(since: started)
        metrics.hits[CacheLayer.memory.rawValue].increment()
        metrics.lookupDuration[CacheLayer.memory.rawValue].recordNanoseconds(elapsed)
        metrics.loads[CacheLayer.memory.rawValue].increment()
        metrics.loadDuration.recordNanoseconds(elapsed)
    }

    /// A load of `kind` answered by `layer`, `started` at that uptime (nanoseconds).
    func answered(_ kind: LoadKind, by layer: CacheLayer, started: UInt64) {
        let metrics = kinds[kind.rawValue]
        metrics.loads[layer.rawValue].increment()
        metrics.loadDuration.recordNanoseconds(elapsed(since: started))
    }

    /// A load of `kind` that ended in an error.
    func failed(_ kind: LoadKind, started: UInt64) {
        let metrics = kinds[kind.rawValue]
        metrics.failures.increment()
        metrics.loadDuration.recordNanoseconds(elapsed(since: started))
    }

    /// A lookup in a cache layer: found or not, and how long it took since `started`.
    func lookedUp(_ kind: LoadKind, in layer: CacheLayer, found: Bool, started: UInt64) {
        guard layer != .network else { return }
        let metrics = kinds[kind.rawValue]
        (found ? metrics.hits : metrics.misses)[layer.rawValue].increment()
        metrics.lookupDuration[layer.rawValue].recordNanoseconds(elapsed(since: started))
    }

    /// A lookup that found nothing at first and then the entry, after a wait (another
    /// instance's fetch lease): a hit, its time already recorded with the first look.
    func foundAfterWaiting(_ kind: LoadKind, in layer: CacheLayer) {
        guard layer != .network else { return }
        kinds[kind.rawValue].hits[layer.rawValue].increment()
    }

    /// A request sent to the origin.
    func fetchedFromOrigin(_ kind: LoadKind) { kinds[kind.rawValue].originFetches.increment() }

    /// A request sent to the origin ended: answered or failed (`finished`), or `cancelled`.
    func originRequestEnded(_ kind: LoadKind, cancelled: Bool) {
        let metrics = kinds[kind.rawValue]
        (cancelled ? metrics.originCancelled : metrics.originFinished).increment()
    }

    /// The origin answered after `attempts` attempts, with `status`.
    func originAnswered(_ kind: LoadKind, status: Int, attempts: Int) {
        let metrics = kinds[kind.rawValue]
        if status == 304 { metrics.revalidations.increment() }
        if attempts > 1 { metrics.retries.increment(by: attempts - 1) }
    }

    /// A load joined a transfer already under way.
    func coalesced(_ kind: LoadKind) { kinds[kind.rawValue].coalescedWaits.increment() }

    /// What the shared tier did since it was last looked at (see ``SharedTierLedger``).
    func sharedTier(_ kind: LoadKind, leaseWaits: Int, failures: [SharedFailure: Int]) {
        let metrics = kinds[kind.rawValue]
        if leaseWaits > 0 { metrics.leaseWaits.increment(by: leaseWaits) }
        for (failure, count) in failures where count > 0 { metrics.sharedErrors[failure.rawValue].increment(by: count) }
    }

    /// The memory layer's size now.
    func memorySize(_ kind: LoadKind, bytes: Int, entries: Int) {
        let metrics = kinds[kind.rawValue]
        metrics.memoryBytes.record(bytes)
        metrics.memoryEntries.record(entries)
    }

    /// The disk layer's size now.
    func diskSize(_ kind: LoadKind, bytes: Int) { kinds[kind.rawValue].diskBytes.record(bytes) }

    /// The monotonic clock in nanoseconds, to time loads and lookups with (0 when durations
    /// are not measured).
    func now() -> UInt64 { measuresTime ? DispatchTime.now().uptimeNanoseconds : 0 }

    func elapsed(since started: UInt64) -> Int64 {
        guard measuresTime else { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= started ? Int64(clamping: now - started) : 0
    }
}
