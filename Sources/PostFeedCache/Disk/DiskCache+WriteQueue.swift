extension DiskCache {
    // MARK: Write queue

    /// Runs `write` on this cache's ``writeQueue``: one job at a time, in submission order,
    /// off the cooperative thread pool.
    ///
    /// ```swift
    /// try await cache.performWrite { try cache.store(bytes, metadata: metadata, forKey: key) }
    /// ```
    public func performWrite<T: Sendable, E: Error>(
        _ write: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        try await writeQueue.run(write)
    }

    /// Returns when every write submitted through ``performWrite(_:)`` before the call has
    /// finished. Writes called synchronously (``store(_:metadata:forKey:)`` outside
    /// ``performWrite(_:)``) have finished when they return.
    public func flush() async {
        await writeQueue.flush()
    }
}
