import Foundation
import PostFeedCache
import PostFeedHTTP

/// The shared tier (Redis) between the disk layer and the network: memory → disk → Redis →
/// network.
///
/// On a disk miss, the entry is looked up in Redis; a fresh hit is served at once and
/// written to the disk layer behind the reader (``runBehind(_:)``); an expired one is
/// written first, then revalidated. On a Redis miss, one instance across the fleet
/// takes the fetch lease and fetches; the others wait for its value
/// (``SharedDataCaching/entryOrLease(forKey:notStoredBefore:afterMiss:)``). What the origin answered is
/// shared back. Redis failing never fails a load: every shared-tier step degrades to the
/// plain fetch. Offline loads (``CachePolicy/cacheOnly``) and reloads never consult it.
///
/// Pages and images both go through it. A page cache that was invalidated (a refresh)
/// takes no shared page stored before that (``ResponseCache/sharedEntriesNotBefore()``):
/// it fetches, and its page replaces the old one in Redis.
extension CachedHTTPLoader {
    /// What the shared tier held when a load looked, before joining its flight.
    enum SharedLook: Sendable {
        /// Fresh: served at once, without a flight.
        case fresh(DiskCacheEntry)
        /// Expired: written to disk and revalidated by the flight.
        case expired(DiskCacheEntry)
        /// Nothing usable (none, corrupt, outdated, too large, or Redis did not answer): the
        /// flight takes the lease; `notStoredBefore` is the cache's, read for the look.
        case missed(notStoredBefore: Date?)
    }

    /// Looks in the shared tier before a load joins its flight, when it is one the tier
    /// serves (no disk entry, neither a reload nor offline); `nil` otherwise.
    ///
    /// In the caller's task, not the flight's: a fresh hit is then one `GET` away, where
    /// the flight's detached task and the continuations back cost two more hops between
    /// threads (`postfeed-bench shared-hit`, BENCHMARKS.md). In-process callers of one key
    /// each look; the fetch itself stays single-flight.
    ///
    /// A cancelled load throws ``Failure/cancelled(_:)`` before looking and before a hit
    /// registers its disk write: no work of it may start after ``finishTransfers()`` returned.
    func lookBeforeFlight(
        _ request: Request, entry: DiskCacheEntry?, policy: CachePolicy, in cache: some ResponseCache, generation: String?
    ) async throws(Failure) -> SharedLook? {
        guard entry == nil, policy != .reload, policy != .cacheOnly, let shared = cache.shared else { return nil }
        guard !Task.isCancelled else { throw .cancelled(nil) }
        let notStoredBefore = await cache.sharedEntriesNotBefore()
        guard let found = await lookUpShared(
            request.key, kind: request.kind, in: shared, notStoredBefore: notStoredBefore,
            maximumBytes: request.http.maximumBodySize)
        else { return .missed(notStoredBefore: notStoredBefore) }
        guard !found.isExpired(at: now()) else { return .expired(found) }
        guard !Task.isCancelled else { throw .cancelled(nil) }
        // Served at once; its copy on the disk layer is written behind the reader (awaited,
        // that write made a Redis hit cost 18-21× a disk hit: `postfeed-bench shared-hit`).
        runBehind { [self] in await keepOnDisk(found, forKey: request.key, in: cache, generation: generation) }
        return .fresh(found)
    }

    /// The flight's work when the load looked in the shared tier first (`look`): revalidates
    /// an expired entry, or takes the lease (or waits on another instance's) after a miss;
    /// without a look, the plain fetch.
    func fetchThroughSharedTier(
        _ request: Request, policy: CachePolicy, entry: DiskCacheEntry?, in cache: some ResponseCache, generation: String?,
        flightKey: String, validate: Validator?, look: SharedLook?
    ) async -> Result<Outcome, Failure> {
        guard let look, let shared = cache.shared else {
            return await fetchFromOrigin(request, policy: policy, entry: entry, in: cache, generation: generation, flightKey: flightKey, validate: validate)
        }
        let lookup: SharedCacheLookup
        switch look {
        case .fresh(let found): return .success(.shared(found))
        case .expired(let found): lookup = .hit(found)
        case .missed(let notStoredBefore):
            lookup = await leaseShared(
                request.key, kind: request.kind, in: shared, notStoredBefore: notStoredBefore,
                maximumBytes: request.http.maximumBodySize)
        }
        switch lookup {
        case .hit(let found):
            if !found.isExpired(at: now()) {
                // The value another instance fetched while this one waited on its lease.
                runBehind { [self] in await keepOnDisk(found, forKey: request.key, in: cache, generation: generation) }
                return .success(.shared(found))
            }
            // Revalidated next: a 304 refreshes the copy on disk, so it is written first.
            await keepOnDisk(found, forKey: request.key, in: cache, generation: generation)
            let result = await fetchFromOrigin(request, policy: policy, entry: found, in: cache, generation: generation, flightKey: flightKey, validate: validate)
            await share(result, forKey: request.key, in: shared)
            return result
        case .lease(let lease):
            // Renewed while the fetch waits and runs, so the others keep waiting for it.
            let renewal = Task { await shared.keepAlive(lease) }
            let result = await fetchFromOrigin(request, policy: policy, entry: nil, in: cache, generation: generation, flightKey: flightKey, validate: validate)
            renewal.cancel()
            await share(result, forKey: request.key, in: shared)
            await shared.release(lease)
            return result
        case .fetch:
            let result = await fetchFromOrigin(request, policy: policy, entry: nil, in: cache, generation: generation, flightKey: flightKey, validate: validate)
            await share(result, forKey: request.key, in: shared)
            return result
        }
    }

    /// Writes a Redis hit to the disk layer (a failed write is reported, not thrown).
    func keepOnDisk(_ entry: DiskCacheEntry, forKey key: String, in cache: some ResponseCache, generation: String?) async {
        do {
            try await cache.store(.data(entry.data), metadata: entry.metadata, forKey: key, generation: generation)
        } catch {
            cache.writeFailed(error, key: key)
        }
    }

    /// Writes what the origin gave — a stored `2xx`, or an entry a `304` refreshed — to the
    /// shared tier (entries over its size cap stay local).
    private func share(_ result: Result<Outcome, Failure>, forKey key: String, in shared: any SharedDataCaching) async {
        guard case .success(let outcome) = result else { return }
        switch outcome {
        case .fetched(let fetched):
            guard fetched.stored, let metadata = fetched.metadata else { return }
            await shared.share(DiskCacheEntry(data: fetched.body, metadata: metadata), forKey: key)
        case .cached(let entry, revalidated: true, _):
            await shared.share(entry, forKey: key)
        case .cached, .shared, .status:
            return
        }
    }
}
