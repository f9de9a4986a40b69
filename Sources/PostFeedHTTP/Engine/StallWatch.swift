import Foundation

/// The stall timeout, kept by the engine thread rather than by curl.
///
/// curl's low-speed check (`CURLOPT_LOW_SPEED_TIME`) takes whole seconds and judges an
/// average speed over a window of several seconds, so 16 bytes and then silence failed 6 s
/// after a 1 s setting. Here a transfer stalls when nothing (no header line, no body byte)
/// has arrived for ``HTTPTimeouts/stall`` since the last byte, or since the request was
/// ready to go out when no byte came yet. Connecting is the connect timeout's business: a
/// transfer still connecting never stalls.
///
/// Transfers stamp their last byte in curl's callbacks (``Transfer/lastByteAt``); the
/// engine asks ``pollTimeout(now:)`` how long it may sleep and, once ``nextCheck`` has
/// passed, ``stalled(among:now:readyAfter:)`` which transfers to fail. `nextCheck` is a
/// lower bound (bytes only ever push deadlines later), so the engine looks at its transfers
/// about once per stall period, not on every wake-up.
struct StallWatch {
    /// The longest the engine sleeps in `curl_multi_poll`, stalls or not.
    static let longestSleep: Duration = .seconds(1)
    /// How soon a transfer that is still connecting is looked at again.
    static let connectingRecheck: Duration = .milliseconds(100)
    /// Longer stall limits count as this (a year): keeps instant arithmetic far from overflow.
    static let longestLimit: Duration = .seconds(365 * 86_400)

    /// No transfer can have stalled before this; `nil` when none is watched.
    private(set) var nextCheck: ContinuousClock.Instant?

    /// The stall limit of `timeouts`, or `nil` when it is moot: a limit not shorter than the
    /// total one is reached by the total one first (which is then the error, and not retried).
    /// Limits under 1 ms count as 1 ms.
    static func limit(of timeouts: HTTPTimeouts) -> Duration? {
        let stall = min(max(timeouts.stall, .milliseconds(1)), longestLimit)
        return stall < timeouts.total ? stall : nil
    }

    /// Starts watching a transfer the engine just added to the multi handle.
    mutating func started(_ transfer: Transfer, at now: ContinuousClock.Instant) {
        guard let limit = Self.limit(of: transfer.settings.timeouts) else { return }
        // No byte can have come yet: the earliest it may stall is a full limit from now.
        lookAgain(at: now + limit)
    }

    /// Milliseconds the engine may sleep before a stall could be due, at most a second.
    func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        guard let nextCheck else { return Self.milliseconds(Self.longestSleep) }
        return Self.milliseconds(min(max(nextCheck - now, .zero), Self.longestSleep))
    }

    /// Whether ``stalled(among:now:readyAfter:)`` has anything to look at.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        nextCheck.map { $0 <= now } ?? false
    }

    /// The transfers of `running` that stalled by `now`, each with its limit; sets
    /// ``nextCheck`` from the others.
    /// - Parameter readyAfter: for a transfer with no byte yet, how long after its start
    ///   its request was ready to go out; `nil` while it is still connecting.
    mutating func stalled(
        among running: some Sequence<Transfer>, now: ContinuousClock.Instant,
        readyAfter: (Transfer) -> Duration?
    ) -> [(transfer: Transfer, limit: Duration)] {
        nextCheck = nil
        var stalled: [(Transfer, Duration)] = []
        for transfer in running {
            guard let limit = Self.limit(of: transfer.settings.timeouts), let started = transfer.startedAt else { continue }
            let since: ContinuousClock.Instant
            if let last = transfer.lastByteAt {
                since = last
            } else if let ready = readyAfter(transfer) {
                since = started + min(max(ready, .zero), Self.longestLimit)
            } else {
                lookAgain(at: now + min(limit, Self.connectingRecheck))
                continue
            }
            let deadline = since + limit
            if deadline <= now {
                stalled.append((transfer, limit))
            } else {
                lookAgain(at: deadline)
            }
        }
        return stalled
    }

    private mutating func lookAgain(at instant: ContinuousClock.Instant) {
        nextCheck = nextCheck.map { min($0, instant) } ?? instant
    }

    /// `duration` (0 … 1 s) in whole milliseconds, rounded up so the engine does not wake
    /// just before a deadline and spin.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        guard seconds < 1 else { return 1000 }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return Int32((attoseconds + perMillisecond - 1) / perMillisecond)
    }
}
