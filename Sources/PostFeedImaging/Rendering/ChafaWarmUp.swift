internal import CChafa
import Synchronization

/// chafa's one-time set-up (about 1 ms on the first canvas of a process), done on a
/// helper thread while the first preview's image decodes: ``TerminalImageRenderer``
/// starts it with `prepareInBackground()` and waits for it before its first canvas.
final class ChafaWarmUp: Sendable {
    static let shared = ChafaWarmUp()

    private enum State {
        case idle
        case running(pthread_t)
        case done
    }

    private let state = Mutex<State>(.idle)

    /// Starts the set-up once per process; later calls do nothing.
    func start() {
        state.withLock { state in
            guard case .idle = state else { return }
            var thread = pthread_t()
            state = pf_chafa_warm_up_start(&thread) != 0 ? .running(thread) : .done
        }
    }

    /// Waits for a started set-up to finish (once; chafa sets itself up in the caller
    /// when it never started).
    func wait() {
        let running: pthread_t? = state.withLock { state in
            defer { state = .done }
            if case .running(let thread) = state { return thread }
            return nil
        }
        if let running { pf_chafa_warm_up_join(running) }
    }
}
