import Foundation

/// What the tier did since it was created.
public struct SharedCacheStatistics: Sendable, Equatable {
    /// Valid entries read. A load that found nothing, waited on another instance's
    /// lease and then got its value counts one miss and one hit (and one ``leaseWaitHits``).
    public var hits = 0
    /// Lookups that found nothing (or something corrupt). The polls of a lease wait are
    /// not lookups: a wait adds no miss, however long it polls.
    public var misses = 0
    /// Entries written.
    public var writes = 0
    /// Values that failed verification, deleted and treated as misses.
    public var corruptRemoved = 0
    /// Valid entries a reader passed over because they were stored before its last
    /// invalidation (``SharedDataCaching/entryOrLease(forKey:notStoredBefore:afterMiss:)``); counted in
    /// ``misses`` too.
    public var outdated = 0
    /// Entries over the tier's size cap, kept local.
    public var oversize = 0
    /// Commands skipped or failed because Redis was down, slow or the connection broke.
    public var unavailable = 0
    /// Writes Redis refused because it was full (`OOM`).
    public var full = 0
    /// Other error replies.
    public var errors = 0
    /// Fetch leases taken.
    public var leasesTaken = 0
    /// Waits on another instance's lease.
    public var leaseWaits = 0
    /// Lease waits that ended with the other instance's value.
    public var leaseWaitHits = 0
    /// Connections made again after a failure.
    public var reconnects = 0

    /// All zero.
    public init() {}
}
