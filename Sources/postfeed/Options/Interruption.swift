import Dispatch
import Foundation

/// SIGINT and SIGTERM as events (their signal numbers), so a command can save the reader's
/// place and say what it did before it exits. While watching, the signals' default action
/// (ending the process) is off; ``stop()`` puts it back.
///
/// `@unchecked Sendable`: its only state is immutable after `start()`, and dispatch sources
/// may be cancelled from any thread.
struct TerminationWatcher: @unchecked Sendable {
    let events: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    static func start() -> TerminationWatcher {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        return TerminationWatcher(events: stream, sources: sources)
    }

    /// Back to the default action: the next SIGINT or SIGTERM ends the process. Idempotent.
    func stop() {
        sources.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
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
