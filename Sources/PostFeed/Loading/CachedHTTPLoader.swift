import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Synchronization
import Tracing

/// The one cached-HTTP path: pages, posts and images are all loaded through it, so they
/// share one freshness policy, one revalidation, one stale-on-error rule, one
/// single-flight and one meaning of offline.
///
/// - **Freshness** is ``HTTPFreshness`` (RFC 9111 as a private cache), the same for pages
///   and images but for responses that give no lifetime: pages get RFC 9111's heuristic
///   freshness, images a default lifetime (``Request/defaultLifetime``; an image cache
///   keeps images).
/// - **Revalidation**: an expired entry is asked for with `If-None-Match` /
///   `If-Modified-Since`. A `304` updates the stored freshness headers with its own
///   (RFC 9111 §4.3.4: a `Cache-Control: max-age` the `304` does not repeat is kept) and
///   the expiry is computed from the merged set; it is written only over the entry it
///   revalidated, never over a newer body another writer stored meanwhile.
/// - **Generations**: a load reads its cache's generation when it starts (the page cache's
///   token, see ``ResponseCache/generation()``). Its flight and "fetched this run" mark
///   are that generation's, and its body is stored only if the generation is still current:
///   a load that started before an invalidation (a refresh) is never joined by one that
///   started after it, and never stores into the new generation.
/// - **Stale if error**: when no response arrives, or the server answers `5xx` / `429`, a
///   cached entry is served with the reason ("the network failed (timed out)", "the
///   server failed (HTTP 503)"). Under ``CachePolicy/reload`` there is none to serve.
/// - **Single flight**: concurrent loads of one key share one transfer, cancelled only when
///   every caller has left; the first caller's validator runs once for all.
/// - **Used as fetched**: a response this loader fetched or revalidated less than
///   ``reuseWindow`` ago is served without asking again (a walk prefetches page 2 and then
///   shows it: one request, not a `200` and then a `304`).
/// - **Offline** is ``CachePolicy/cacheOnly`` for every load.
/// - **Whole or nothing**: a body is validated (it decodes as a page, it sniffs as an
///   image) before it is stored, and stored atomically on the cache's write queue; a load
///   cancelled before its body arrived stores nothing.
final class CachedHTTPLoader: Sendable {
    /// One load: the request, the cache key, the policy and what to keep with the entry.
    struct Request: Sendable {
        var http: HTTPRequest
        var key: String
        var policy: CachePolicy
        /// Response headers kept as `header.<name>` attributes (a page's `Link`, its total).
        var keptHeaders: [String] = []
        /// Attributes stored with the entry.
        var attributes: [String: String] = [:]
        /// Streams the body to a file there, for the cache to adopt without a copy (images).
        var downloads: DownloadsLocation?
        /// What is loaded, for the metrics' `kind` dimension.
        var kind: LoadKind = .page
        /// The load's span context, injected into the request (`traceparent`); `nil` injects nothing.
        var context: ServiceContext? = nil
        /// A `2xx` body is returned before it is stored: the store runs behind the load
        /// (``runBehind(_:)``, which ``finishTransfers()`` waits for). Only without a shared
        /// tier, which is written from the stored entry.
        var storesBehind = false
        /// How long a response without an explicit lifetime (no `Cache-Control` lifetime,
        /// no `Expires`) is fresh: images' ``ImagePipeline/Configuration/defaultFreshness``.
        /// `nil` (pages): RFC 9111's heuristic (``HTTPFreshness``).
        var defaultLifetime: TimeInterval? = nil
    }

    /// What a validator made of a `2xx` body: its decoded value, shared with the flight's
    /// other callers, and attributes to store with it. `nil` from a validator: the body is
    /// unusable and is not stored.
    struct Accepted: Sendable {
        var value: (any Sendable)?
        var attributes: [String: String] = [:]
        /// `Content-Type` to store when the response named none.
        var contentType: String?
    }

    typealias Validator = @Sendable (Data, HTTPHeaders) -> Accepted?

    /// Where an answer came from.
    enum Outcome: Sendable {
        /// The cached entry: fresh, used as it is (``CachePolicy/cacheElseLoad``), fetched
        /// this run, or stale with the reason (offline, the network or the server failed).
        case cached(DiskCacheEntry, revalidated: Bool, stale: String?)
        /// A fresh entry from the shared tier (Redis), which another instance fetched; its
        /// write to the disk layer may still be under way (``finishTransfers()`` waits for it).
        case shared(DiskCacheEntry)
        /// A `2xx` fetched now: its body, headers, the validator's value, whether it was stored.
        case fetched(Fetched)
        /// An error status with no cached entry to stand in.
        case status(HTTPResponse)
    }

    struct Fetched: Sendable {
        var body: Data
        var headers: HTTPHeaders
        var accepted: Accepted?
        /// Stored before the load returned (not when the store runs behind it).
        var stored: Bool
        /// Until when the response is fresh (``HTTPFreshness``), computed once here.
        var expiresAt: Date
        /// The metadata stored with the body, when it was stored.
        var metadata: CacheEntryMetadata? = nil
    }

    /// Why no answer.
    enum Failure: Error, Sendable {
        /// ``CachePolicy/cacheOnly`` (offline) and nothing cached.
        case notCached
        case cancelled(HTTPClientError?)
        /// No response arrived, and nothing cached to stand in.
        case network(HTTPClientError)
        /// A `304` to a request sent without validators.
        case unaskedNotModified
        /// The body arrived but could not be read back from its file.
        case unreadableBody(String)
    }

    /// How long a response this loader fetched counts as fresh whatever its headers say:
    /// five minutes, longer than any command-line run's walk from a prefetch to its use; a
    /// long-lived service revalidates after it.
    static let defaultReuseWindow: TimeInterval = 300

    let http: any HTTPLoading
    /// Every load is ``CachePolicy/cacheOnly``.
    let offline: Bool
    let reuseWindow: TimeInterval
    let now: @Sendable () -> Date
    let logger: Logger
    /// Metrics, spans and context propagation (``FeedTelemetry``).
    let telemetry: LoadTelemetry
    private let state = Mutex(State())

    private struct State {
        var flights: [String: Flight] = [:]
        /// When this loader last fetched or revalidated each entry, by flight key.
        var fetchedAt: [String: Date] = [:]
        /// Every transfer task not yet finished, also those every caller left.
        var running: [UInt64: Task<Void, Never>] = [:]
    }

    /// What a flight gives each of its callers: the outcome and how it was reached.
    private struct Answer: Sendable {
        var result: Result<Outcome, Failure>
        var trail = LoadTrail()
    }

    private struct Flight {
        typealias Waiter = CheckedContinuation<Answer, Never>
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
    }

    private let ids = Atomic<UInt64>(0)

    init(
        http: any HTTPLoading, offline: Bool = false, reuseWindow: TimeInterval = defaultReuseWindow,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "postfeed.loader"),
        telemetry: FeedTelemetry = .system
    ) {
        self.http = http
        self.offline = offline
        self.reuseWindow = reuseWindow
        self.now = now
        self.logger = logger
        self.telemetry = LoadTelemetry(telemetry)
    }

    /// The policy a load runs under: `policy`, or ``CachePolicy/cacheOnly`` offline.
    func effective(_ policy: CachePolicy) -> CachePolicy { offline ? .cacheOnly : policy }

    /// Loads `request` through `cache` (see the type's rules). `validate` runs once per
    /// fetched `2xx` body, before anything is stored.
    func load(_ request: Request, in cache: some ResponseCache, validate: Validator? = nil)
        async throws(Failure) -> Outcome
    {
        var trail = LoadTrail()
        return try await load(request, in: cache, trail: &trail, validate: validate)
    }

    /// ``load(_:in:validate:)``, telling `trail` which layer answered, after how many
    /// attempts and with which status (also when it throws).
    func load(_ request: Request, in cache: some ResponseCache, trail: inout LoadTrail, validate: Validator? = nil)
        async throws(Failure) -> Outcome
    {
        let policy = effective(request.policy)
        let generation = await cache.generation()
        let flightKey = Self.flightKey(request.key, in: cache, generation: generation)
        let entry: DiskCacheEntry?
        if policy == .reload {
            entry = nil
        } else {
            let started = telemetry.metrics.now()
            entry = cache.liveEntry(forKey: request.key)
            telemetry.metrics.lookedUp(request.kind, in: .disk, found: entry != nil, started: started)
        }
        if let entry {
            trail.layer = .disk
            let now = now()
            let fetchedNow = fetchedRecently(flightKey, now: now)
            let expired = entry.isExpired(at: now) && !fetchedNow
            switch policy {
            case .cacheOnly: return .cached(entry, revalidated: false, stale: expired ? "offline" : nil)
            case .cacheElseLoad: return .cached(entry, revalidated: false, stale: nil)
            case .useCache where !expired: return .cached(entry, revalidated: false, stale: nil)
            case .useCache, .revalidate, .reload: break
            }
        } else if policy == .cacheOnly {
            throw .notCached
        }
        trail.layer = nil
        // The shared tier (Redis), looked in before the flight: a fresh hit needs none.
        let look = try await lookBeforeFlight(request, entry: entry, policy: policy, in: cache, generation: generation)
        if case .fresh(let found) = look {
            trail.layer = .shared
            return .shared(found)
        }
        var request = request
        if let context = request.context { telemetry.inject(context, into: &request.http.headers) }
        // A reload never joins a conditional flight (it would get a 304 or a stale copy).
        let answer = await joinFlight(policy == .reload ? flightKey + "\nreload" : flightKey, kind: request.kind) {
            [self, request] in
            await fetchThroughSharedTier(
                request, policy: policy, entry: entry, in: cache, generation: generation, flightKey: flightKey,
                validate: validate, look: look)
        }
        trail = answer.trail
        // A stale copy served when the origin failed: the disk layer answered (unless the
        // shared tier did).
        if case .success(.cached) = answer.result, trail.layer == nil { trail.layer = .disk }
        return try answer.result.get()
    }

    /// Returns once every transfer started so far has finished: stored whole, or cancelled
    /// before its body arrived and stored nothing. Call it after cancelling prefetches and
    /// before flushing the caches, when a process is about to exit.
    func finishTransfers() async {
        // Each task removes itself from `running` as it ends (`complete`).
        while let task = state.withLock({ $0.running.values.first }) { await task.value }
    }

    /// Runs `work` after the load that started it has returned (a shared-tier hit's write to
    /// the disk layer); ``finishTransfers()`` waits for it like for a transfer.
    func runBehind(_ work: @escaping @Sendable () async -> Void) {
        let id = ids.add(1, ordering: .relaxed).newValue
        state.withLock { current in
            // The task removes itself under this lock, so after it was added.
            current.running[id] = Task.detached(priority: Task.currentPriority) { [self] in
                await work()
                _ = state.withLock { $0.running.removeValue(forKey: id) }
            }
        }
    }

    /// Forgets which responses were fetched this run (after the cache was invalidated).
    func forgetFetched(prefix name: String) {
        state.withLock { state in state.fetchedAt = state.fetchedAt.filter { !$0.key.hasPrefix(name + "\n") } }
    }

    /// Whether `entry`, read from `cache` under `key`, is past its expiry and was not
    /// fetched or revalidated by this loader within ``reuseWindow``: what
    /// ``CachePolicy/useCache`` would revalidate.
    func isOutdated(_ entry: DiskCacheEntry, forKey key: String, in cache: some ResponseCache) async -> Bool {
        let now = now()
        guard entry.isExpired(at: now) else { return false }
        return !fetchedRecently(Self.flightKey(key, in: cache, generation: await cache.generation()), now: now)
    }

    /// What a load of `key` from `cache` is coalesced and remembered under: the cache, its
    /// generation (a load from before an invalidation is another flight) and the key.
    private static func flightKey(_ key: String, in cache: some ResponseCache, generation: String?) -> String {
        cache.name + "\n" + (generation.map { $0 + "\n" } ?? "") + key
    }

    private func fetchedRecently(_ flightKey: String, now: Date) -> Bool {
        guard let fetched = state.withLock({ $0.fetchedAt[flightKey] }) else { return false }
        return now.timeIntervalSince(fetched) < reuseWindow
    }

    func markFetched(_ flightKey: String) {
        let now = now()
        let window = reuseWindow
        state.withLock { state in
            state.fetchedAt[flightKey] = now
            // Bounded: a long scroll must not remember every page and image it passed. Past
            // the window an entry means nothing, so sweep those out now and then (amortized).
            if state.fetchedAt.count >= Self.fetchedSweepThreshold, state.fetchedAt.count % 256 == 0 {
                state.fetchedAt = state.fetchedAt.filter { now.timeIntervalSince($0.value) < window }
            }
        }
    }

    /// How many remembered fetches trigger the occasional sweep of expired ones.
    static let fetchedSweepThreshold = 1_024

    // MARK: Single flight

    private func joinFlight(
        _ flightKey: String, kind: LoadKind, priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async -> Result<Outcome, Failure>
    ) async -> Answer {
        let waiter = ids.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Flight.Waiter) in
                if Task.isCancelled {
                    continuation.resume(returning: Answer(result: .failure(.cancelled(nil))))
                    return
                }
                let (joined, coalesced): (Bool, Bool) = state.withLock { state in
                    // Checked again under the lock `leave` takes: a cancellation landing
                    // between the check above and here must not leave a waiter behind.
                    if Task.isCancelled { return (false, false) }
                    if state.flights[flightKey] != nil {
                        state.flights[flightKey]?.waiters[waiter] = continuation
                        return (true, true)
                    }
                    let id = ids.add(1, ordering: .relaxed).newValue
                    state.flights[flightKey] = Flight(id: id, waiters: [waiter: continuation])
                    let task = Task.detached(priority: Task.currentPriority) { [self] in
                        let recorder = LoadRecorder()
                        let result = await LoadRecorder.$current.withValue(recorder) { await work() }
                        complete(flightKey, flight: id, with: Answer(result: result, trail: recorder.trail))
                    }
                    state.flights[flightKey]?.task = task
                    state.running[id] = task
                    return (true, false)
                }
                if !joined { continuation.resume(returning: Answer(result: .failure(.cancelled(nil)))) }
                if coalesced { telemetry.metrics.coalesced(kind) }
            }
        } onCancel: {
            leave(flightKey, waiter: waiter)
        }
    }

    private func leave(_ flightKey: String, waiter: UInt64) {
        let (continuation, orphaned) = state.withLock { state -> (Flight.Waiter?, Task<Void, Never>?) in
            guard var flight = state.flights[flightKey], let continuation = flight.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            if flight.waiters.isEmpty {
                // The last caller left: stop the transfer; the next caller starts anew.
                state.flights[flightKey] = nil
                return (continuation, flight.task)
            }
            state.flights[flightKey] = flight
            return (continuation, nil)
        }
        orphaned?.cancel()
        continuation?.resume(returning: Answer(result: .failure(.cancelled(nil))))
    }

    private func complete(_ flightKey: String, flight id: UInt64, with result: Answer) {
        let waiters = state.withLock { state -> [Flight.Waiter] in
            state.running[id] = nil
            guard let flight = state.flights[flightKey], flight.id == id else { return [] }
            state.flights[flightKey] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}
