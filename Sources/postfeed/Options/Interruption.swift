import Dispatch
import Foundation
import Synchronization

/// Signals as events (their numbers), so a command can save the reader's place and say
/// what it did before it exits: SIGINT and SIGTERM by default; `browse` also watches SIGHUP
/// and SIGWINCH. While watching, the signals' default actions are off; ``stop()`` puts them
/// back.
struct TerminationWatcher: Sendable {
    let events: AsyncStream<Int32>
    private let id: UUID

    /// The signals a command that saves its place on the way out watches.
    static let terminating: Set<Int32> = [SIGINT, SIGTERM]

    static func start(watching numbers: Set<Int32> = terminating) -> TerminationWatcher {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let id = UUID()
        SignalSources.shared.subscribe(continuation, id: id, to: numbers)
        return TerminationWatcher(events: stream, id: id)
    }

    /// Makes SIGINT and SIGTERM pass through here from now on, so that `words` is said when
    /// one ends the process while nobody watches (before a watcher starts, between two, or
    /// a second Ctrl-C): `--verbose`'s summary. Their action stays the default one: the
    /// process ends by the signal. `nil` says nothing.
    static func sayOnTermination(_ words: (@Sendable () -> Void)?) {
        SignalSources.shared.setLastWords(words, installing: terminating)
    }

    /// Back to the default actions: the next signal acts as it would without any of this
    /// (SIGINT ends the process, SIGWINCH is ignored). Idempotent, and without effect once
    /// another watcher started.
    func stop() {
        SignalSources.shared.unsubscribe(id: id)
    }
}

/// The process's one dispatch source per signal, made on first use and never cancelled.
///
/// libdispatch on Linux installs its own handler for a signal the first time a source for
/// it is made, and never again: a watcher that set `SIG_DFL` when it stopped and `SIG_IGN`
/// when the next one started (`list` reads its pages, then waits for late images) left the
/// signal ignored, and the second watch never saw Ctrl-C. So the dispositions are touched
/// once per signal, and "not watching" is kept here: a signal nobody watches gets its
/// default action, as it would without any of this.
///
/// `@unchecked Sendable`: the sources are made and the subscriber swapped under the lock.
private final class SignalSources: @unchecked Sendable {
    static let shared = SignalSources()

    private struct State {
        var sources: [Int32: any DispatchSourceSignal] = [:]
        var subscriber: (id: UUID, numbers: Set<Int32>, events: AsyncStream<Int32>.Continuation)?
        /// Said once before a signal nobody watches ends the process.
        var lastWords: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Sends `numbers` to `subscriber` instead of their default actions.
    func subscribe(_ subscriber: AsyncStream<Int32>.Continuation, id: UUID, to numbers: Set<Int32>) {
        state.withLock { state in
            state.subscriber?.events.finish()
            state.subscriber = (id, numbers, subscriber)
            install(numbers, in: &state)
        }
    }

    /// Says `words` before a signal nobody watches ends the process; makes the sources of
    /// `numbers` (with nobody watching them, their action is still the default one).
    func setLastWords(_ words: (@Sendable () -> Void)?, installing numbers: Set<Int32>) {
        state.withLock { state in
            state.lastWords = words
            if words != nil { install(numbers, in: &state) }
        }
    }

    private func install(_ numbers: Set<Int32>, in state: inout State) {
        for number in numbers.sorted() where state.sources[number] == nil {
            signal(number, SIG_IGN)  // until Dispatch installs its handler
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            state.sources[number] = source
        }
    }

    /// Back to the default actions for the next signals.
    func unsubscribe(id: UUID) {
        state.withLock { state in
            guard state.subscriber?.id == id else { return }
            state.subscriber?.events.finish()
            state.subscriber = nil
        }
    }

    private func deliver(_ number: Int32) {
        if let subscriber = state.withLock({ $0.subscriber }), subscriber.numbers.contains(number) {
            subscriber.events.yield(number)
            return
        }
        // Nobody watches SIGWINCH: its default action is to ignore it (and its source must
        // keep Dispatch's handler for the next watcher).
        if number == SIGWINCH { return }
        // Nobody watches: end the process by the signal, as its default action would. This
        // Dispatch thread blocks signals; unblock this one here and raise it here.
        flushStandardOutput()
        let words = state.withLock { state in
            defer { state.lastWords = nil }
            return state.lastWords
        }
        words?()
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
    }
}

/// Work that SIGINT or SIGTERM cancels instead of killing the process.
///
/// `postfeed list --pages 50` prints the posts it loaded at the end; killed halfway, it would
/// have saved a place after posts it never printed. Run under ``run(_:)``, the first signal
/// cancels the loading instead: the command prints what it has, saves the place after it,
/// and exits with 128 + the signal number, as a shell expects. A second signal ends the
/// process at once, which is also safe: state files are only ever replaced atomically.
enum Interruption {
    /// Runs `work` in a child task and returns its result, with the signal that cancelled
    /// it (`nil` when none came).
    static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> (result: T, signal: Int32?) {
        let watcher = TerminationWatcher.start()
        let task = Task { await work() }
        let watching = Task { () -> Int32? in
            for await number in watcher.events {
                watcher.stop()  // a second Ctrl-C ends the process
                task.cancel()
                return number
            }
            return nil
        }
        let result = await task.value
        watching.cancel()
        watcher.stop()
        return (result, await watching.value)
    }

    /// The conventional exit status of a process ended by `signal` (130 for SIGINT).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
