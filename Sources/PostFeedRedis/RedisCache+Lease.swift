import PostFeedCache
import Foundation
import Synchronization

extension RedisCache {
    /// A fetch lease this instance holds: release it with ``release(_:)`` after sharing the
    /// value (or failing to get one).
    public typealias Lease = SharedCacheLease

    /// What ``entryOrLease(forKey:notStoredBefore:afterMiss:)`` found.
    public typealias LookupResult = SharedCacheLookup

    /// Releases `key`'s lease only if this instance still holds it (a one-key script:
    /// compare the token, delete), so a lease that expired and was taken by another
    /// instance is left alone.
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """

    /// Looks `key` up and, on a miss, makes sure one instance fetches it: takes the fetch
    /// lease (`SET lease:… NX PX`), or, when another instance holds it, waits for its value
    /// (polling every ``Configuration/leasePollInterval``) until the value arrives or the
    /// lease is gone — released without a value, or expired because its holder died —, and
    /// then tries again (at most three rounds, then ``LookupResult/fetch``).
    ///
    /// An entry stored before `notStoredBefore` (this caller's last invalidation, see
    /// ``recordInvalidation(ofScope:at:)``) counts as absent: the caller takes the lease and
    /// fetches, and its value replaces the old one. It is not deleted (it is valid; only this
    /// caller wants a newer one).
    ///
    /// `afterMiss`: the caller has just looked (``lookup(forKey:notStoredBefore:)``) and found
    /// nothing usable, so the first round goes straight to the lease (one `GET` fewer; the
    /// value is looked for again once the lease is taken, as always).
    public func entryOrLease(forKey key: String, notStoredBefore: Date? = nil, afterMiss: Bool = false) async -> LookupResult {
        for round in 0..<3 {
            if round > 0 || !afterMiss {
                let get = await link.run([Data("GET".utf8), Data(redisKey(forKey: key).utf8)])
                guard case .success(let reply) = get else { return .fetch }
                switch read(reply, key: key, notStoredBefore: notStoredBefore) {
                case .entry(let entry): return .hit(entry)
                case .corrupt: _ = await link.run([Data("DEL".utf8), Data(redisKey(forKey: key).utf8)])
                case .absent, .outdated: break
                }
            }

            let token = UUID().uuidString
            // Not sent twice after a late reply: the first may have taken the lease already.
            let take = await link.run([
                Data("SET".utf8), Data(leaseKey(forKey: key).utf8), Data(token.utf8), Data("NX".utf8), Data("PX".utf8),
                Data(String(RedisLink.milliseconds(configuration.leaseDuration)).utf8),
            ], retryable: false)
            switch take {
            case .success(.status):
                let lease = Lease(key: key, token: token)
                // The value may have come between the GET and the lease: its holder shared it
                // and released the lease in between (on a busy connection that gap is long;
                // scripts/bench-shared.sh saw 7 % extra origin fetches from it). Look again.
                let again = await link.run([Data("GET".utf8), Data(redisKey(forKey: key).utf8)])
                if case .success(let reply) = again,
                    case .entry(let entry) = read(reply, key: key, notStoredBefore: notStoredBefore, counted: false)
                {
                    link.counters.withLock { $0.hits += 1 }
                    await release(lease)
                    return .hit(entry)
                }
                link.counters.withLock { $0.leasesTaken += 1 }
                return .lease(lease)
            case .success:
                break  // held by another instance: wait for its value
            case .failure:
                return .fetch
            }
            link.counters.withLock { $0.leaseWaits += 1 }
            switch await waitForValue(forKey: key, notStoredBefore: notStoredBefore) {
            case .some(.some(let entry)):
                link.counters.withLock { $0.leaseWaitHits += 1 }
                return .hit(entry)
            case .some(.none): continue  // the lease ended without a value: try again
            case .none: return .fetch
            }
        }
        return .fetch
    }

    /// Pushes a lease's expiry back to a full lease duration only if this instance still
    /// holds it (a one-key script, like the release).
    static let renewScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end
        """

    /// Keeps `lease` alive while its holder fetches, until the calling task is cancelled:
    /// every third of ``Configuration/leaseDuration`` its expiry is pushed back to a full
    /// lease duration. A fetch may wait in the HTTP client's queue behind a hundred others
    /// and outlast one lease (`scripts/bench-shared.sh` saw the waiters take over and fetch
    /// again); a holder that dies stops renewing, and its lease expires within one duration.
    /// Returns early when the lease is no longer this instance's or Redis stops answering.
    public func keepAlive(_ lease: Lease) async {
        let milliseconds = Data(String(RedisLink.milliseconds(configuration.leaseDuration)).utf8)
        while true {
            do { try await Task.sleep(for: configuration.leaseDuration / 3) } catch { return }
            let reply = await link.run([
                Data("EVAL".utf8), Data(Self.renewScript.utf8), Data("1".utf8), Data(leaseKey(forKey: lease.key).utf8),
                Data(lease.token.utf8), milliseconds,
            ])
            guard case .success(.integer(1)) = reply else { return }
        }
    }

    /// Releases `lease` if this instance still holds it.
    public func release(_ lease: Lease) async {
        _ = await link.run([
            Data("EVAL".utf8), Data(Self.releaseScript.utf8), Data("1".utf8), Data(leaseKey(forKey: lease.key).utf8),
            Data(lease.token.utf8),
        ])
    }

    /// Failed polls in a row after which a waiter gives up on Redis and fetches itself:
    /// about half a second when Redis is down, while one late reply on a busy machine (the
    /// 8-process benchmark, load 20-30 on 2 cores, lost 3,852 of its 5,652 extra origin
    /// fetches to waiters fetching after a single failed poll) no longer sends it to the origin.
    static let failedPollsBeforeFetching = 3

    /// Polls for `key`'s value while its lease lasts: `.some(entry)` when it arrived,
    /// `.some(nil)` when the lease ended without one, `nil` when Redis stopped answering
    /// (``failedPollsBeforeFetching`` polls in a row failed),
    /// the task was cancelled or the wait passed ``Configuration/longestLeaseWait`` (a live
    /// holder renews its lease, see ``keepAlive(_:)``).
    ///
    /// The polls back off (the interval doubles from ``Configuration/leasePollInterval`` up
    /// to eight times it, with ±25 % jitter) and the lease is looked at every third poll
    /// only: a hundred waiters per instance polling every 20 ms flooded the one connection
    /// and Redis (`scripts/bench-shared.sh`: commands timed out, the tier was skipped and
    /// the origin fetched what it should not have).
    /// A value stored before `notStoredBefore` is the one the holder is about to replace:
    /// the wait goes on.
    ///
    /// The polls add nothing to ``Statistics/misses`` or ``Statistics/outdated`` (the lookup
    /// before the wait counted the miss); a value found counts one hit.
    private func waitForValue(forKey key: String, notStoredBefore: Date?) async -> DiskCacheEntry?? {
        let deadline = ContinuousClock.now + configuration.longestLeaseWait
        let longest = configuration.leasePollInterval * 8
        var interval = configuration.leasePollInterval
        var polls = 0
        var failuresInARow = 0
        while ContinuousClock.now < deadline {
            do { try await Task.sleep(for: interval * Double.random(in: 0.75...1.25)) } catch { return nil }
            interval = min(interval * 2, longest)
            polls += 1
            let get = await link.run([Data("GET".utf8), Data(redisKey(forKey: key).utf8)])
            guard case .success(let reply) = get else {
                // One late reply is no reason to fetch what the holder is about to share:
                // poll on (the link is down meanwhile, the polls back off past its delay).
                failuresInARow += 1
                if failuresInARow >= Self.failedPollsBeforeFetching { return nil }
                continue
            }
            failuresInARow = 0
            // Not counted poll by poll: the lookup before the wait counted its miss, and the
            // wait counts once what it ends with (a hit, or a corrupt value removed).
            switch read(reply, key: key, notStoredBefore: notStoredBefore, counted: false) {
            case .entry(let entry):
                link.counters.withLock { $0.hits += 1 }
                return .some(entry)
            case .corrupt:
                link.counters.withLock { $0.corruptRemoved += 1 }
                _ = await link.run([Data("DEL".utf8), Data(redisKey(forKey: key).utf8)])
                return .some(nil)
            case .absent, .outdated: break
            }
            guard polls % 3 == 0 else { continue }
            let held = await link.run([Data("EXISTS".utf8), Data(leaseKey(forKey: key).utf8)])
            guard case .success(let exists) = held else {
                failuresInARow += 1
                if failuresInARow >= Self.failedPollsBeforeFetching { return nil }
                continue
            }
            if exists == .integer(0) { return .some(nil) }
        }
        return nil
    }
}
