import Dispatch

/// Where the fixture server's tasks run: threads of their own, not Swift's cooperative
/// pool.
///
/// The pool has one thread per core (two on the machines the suites run on). A test that
/// blocks one of them (a child process waited on synchronously, `redis-cli` polled for a
/// PONG) and another that does the same left no thread for any fixture server in the same
/// process: its handlers stopped, its clients waited 15 s and failed with a stall timeout.
/// A server whose connection tasks prefer this executor answers whatever the pool is doing.
///
/// The queue is concurrent and, as every queue made with `DispatchQueue(label:)`, served
/// by libdispatch's overcommitting threads: a job waits for no other job to finish.
final class ServerExecutor: TaskExecutor {
    static let shared = ServerExecutor()

    private let queue = DispatchQueue(label: "postfeed.fixture-server", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
