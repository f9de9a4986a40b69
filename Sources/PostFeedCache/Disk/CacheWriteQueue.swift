import Dispatch

/// One cache's writes, one at a time, off Swift's cooperative thread pool.
///
/// A cache write creates a file, syncs it to disk and renames it: milliseconds of blocking
/// on a real disk. The pool has one thread per core, so a few writes at once would stall
/// every task of the process. A ``DiskCache`` sends its writes here instead, in the order
/// they were submitted (writes to one cache take its lock in turn anyway), and the caller
/// awaits. Each cache owns its queue: a slow write to one cache never delays another's.
///
/// Another ``DataCaching`` implementation can own one too:
///
/// ```swift
/// final class MyCache: DataCaching {
///     let writeQueue = CacheWriteQueue(label: "my-cache.writes")
///     func performWrite<T: Sendable, E: Error>(
///         _ write: @escaping @Sendable () throws(E) -> T
///     ) async throws(E) -> T {
///         try await writeQueue.run(write)
///     }
///     func flush() async { await writeQueue.flush() }
///     // …
/// }
/// ```
public final class CacheWriteQueue: Sendable {
    private let queue: DispatchQueue
    /// Marks this queue (and only this one: every key instance is distinct).
    private let marker: DispatchSpecificKey<Bool>

    /// A new serial queue; `label` names its thread in debuggers and crash logs.
    public init(label: String) {
        let queue = DispatchQueue(label: label, qos: .utility)
        let marker = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: marker, value: true)
        self.queue = queue
        self.marker = marker
    }

    /// Whether the caller runs on this queue (for tests and assertions).
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Runs `write` on the queue after every write submitted before it, and returns its
    /// result when it is done. The awaiting task holds no thread meanwhile.
    public func run<T: Sendable, E: Error>(_ write: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(E) -> T in try write() })
            }
        }
        return try result.get()
    }

    /// Returns when every write submitted before the call is done.
    public func flush() async {
        await run {}
    }
}
