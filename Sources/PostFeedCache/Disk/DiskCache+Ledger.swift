extension DiskCache {
    /// The bytes of entries the shared size ledger records (every process writing to this
    /// directory keeps it), or `nil` when it cannot be read. One small read under the
    /// directory's lock, no listing: cheap enough to call after each write, e.g. for a
    /// size gauge.
    public func recordedTotalBytes() -> Int? {
        guard let ledger = try? lock.withExclusiveAccess({ $0 }) else { return nil }
        return Int(exactly: ledger.bytes)
    }
}
