import PostFeedCache
import Foundation

/// Invalidations every instance sees: one small key per scope (a backend's pages) holding
/// the time of the latest invalidation, which readers pass to
/// ``RedisCache/entryOrLease(forKey:notStoredBefore:afterMiss:)`` so that entries stored before it
/// read as misses. One key, single-key commands: a Redis Cluster works unchanged.
extension RedisCache {
    /// Raises the key's value to `ARGV[1]` (milliseconds since 1970) unless it already holds
    /// a later one: two instances refreshing at once leave the later time, whatever order
    /// their commands arrive in.
    static let raiseScript = """
        local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
        if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
        return 0
        """

    /// The Redis key holding `scope`'s latest invalidation time.
    public func invalidationKey(forScope scope: String) -> String {
        configuration.namespace + "invalidated:" + CacheLayout.name(forKey: scope)
    }

    /// Records that `scope`'s entries stored before `date` are out of date, for every
    /// instance (the latest of all recorded times is kept). `false` when Redis cannot take
    /// it now (counted, never thrown): the caller still applies it to itself.
    @discardableResult
    public func recordInvalidation(ofScope scope: String, at date: Date) async -> Bool {
        let milliseconds = Self.milliseconds(since1970: date)
        let result = await link.run([
            Data("EVAL".utf8), Data(Self.raiseScript.utf8), Data("1".utf8), Data(invalidationKey(forScope: scope).utf8),
            Data(String(milliseconds).utf8),
        ])
        return noteWrite(result)
    }

    /// The latest invalidation of `scope` any instance recorded, or `nil` (none, an
    /// unreadable value, or Redis cannot answer now).
    public func lastInvalidation(ofScope scope: String) async -> Date? {
        let reply = await link.run([Data("GET".utf8), Data(invalidationKey(forScope: scope).utf8)])
        guard case .success(.string(let value)) = reply, let text = String(data: value, encoding: .utf8),
            let milliseconds = Int64(text), milliseconds > 0
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// `date` in whole milliseconds since 1970, rounded up (an entry stored in the same
    /// millisecond as the invalidation counts as before it), clamped to a sane range.
    static func milliseconds(since1970 date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.up)
        guard value.isFinite else { return 0 }
        return Int64(min(max(value, 0), 1e15))
    }
}
