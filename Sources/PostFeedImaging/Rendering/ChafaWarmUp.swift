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
    /// Waits for the set-up thread to end (tests wrap it to watch the order of events).
    private let join: @Sendable (pthread_t) -> Void

    init(join: @escaping @Sendable (pthread_t) -> Void = ChafaWarmUp.joinThread) {
        self.join = join
    }

    /// Waits for the set-up thread `thread` to end.
    static func joinThread(_ thread: pthread_t) {
        pf_chafa_warm_up_join(thread)
    }

    /// Starts the set-up once per process; later calls do nothing.
    func start() {
        state.withLock { state in
            guard case .idle = state else { return }
            var thread = pthread_t()
            state = pf_chafa_warm_up_start(&thread) != 0 ? .running(thread) : .done
        }
    }

    /// Waits for a started set-up to finish (once; chafa sets itself up in the caller
    /// when it never started). The lock is held across the join (about 1 ms, once), so
    /// every caller returns only after the set-up has ended: one that comes while another
    /// joins waits for it rather than drawing beside the still running set-up.
    func wait() {
        state.withLock { state in
            if case .running(let thread) = state { join(thread) }
            state = .done
        }
    }
}
