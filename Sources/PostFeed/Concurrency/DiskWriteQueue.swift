import Dispatch

/// Cache writes, off Swift's cooperative thread pool.
///
/// A cache write creates a file, syncs it to disk and renames it: milliseconds of blocking
/// on a real disk. The pool has one thread per core (two on the machines this runs on), so
/// a few writes at once would stall every task of the process. They run here instead, one
/// at a time (writes to one cache take its lock in turn anyway), and the caller awaits.
enum DiskWriteQueue {
    private static let marker = DispatchSpecificKey<Bool>()
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "postfeed.disk-writes", qos: .utility)
        queue.setSpecific(key: marker, value: true)
        return queue
    }()

    /// Whether the caller runs on the queue (for tests and assertions).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Returns when every write queued before the call is done.
    static func drain() async {
        await run {}
    }

    /// Runs `write` on the queue and returns when it is done.
    static func run(_ write: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                write()
                continuation.resume()
            }
        }
    }
}
