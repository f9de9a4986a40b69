import Dispatch
import Foundation

/// The signals `browse` handles itself, as events: SIGINT, SIGTERM and SIGHUP end the
/// session (the place saved, the terminal restored), SIGWINCH re-lays the screen out.
///
/// While watching, the signals' default actions are off, so none of them can end the
/// process with the terminal left raw and on the alternate screen; ``stop()`` puts them back.
/// `@unchecked Sendable`: immutable after `start()`; dispatch sources may be cancelled
/// from any thread.
struct BrowseSignals: @unchecked Sendable {
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let watched: [Int32] = terminating + [SIGWINCH]

    let events: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    static func start() -> BrowseSignals {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for number in watched {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        return BrowseSignals(events: stream, sources: sources)
    }

    /// Back to the default actions. Idempotent.
    func stop() {
        sources.forEach { $0.cancel() }
        Self.watched.forEach { signal($0, SIG_DFL) }
    }
}
