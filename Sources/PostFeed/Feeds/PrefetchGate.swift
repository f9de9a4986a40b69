import Synchronization

/// A one-way gate a prefetch waits at before it starts: opened by whichever comes first of
/// what it waits for, a time limit, a load that wants the prefetched page now, or
/// cancellation. Opening it twice is harmless.
final class PrefetchGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Lets every waiter through, now and from now on.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once the gate is open; cancelling the waiting task opens it.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let passNow = state.withLock { state -> Bool in
                    if state.isOpen { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if passNow { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }

    /// Opens the gate when `task` ends or after `limit` on `clock`, whichever comes first.
    func open(after task: Task<Void, Never>, atMost limit: Duration, on clock: any Clock<Duration>) {
        let timer = Task { [weak self] in
            // A cancelled sleep (the task ended first) must not open the gate early.
            do { try await clock.sleep(for: limit) } catch { return }
            self?.open()
        }
        Task { [weak self] in
            await task.value
            timer.cancel()
            self?.open()
        }
    }
}
