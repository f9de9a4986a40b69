import Foundation
import Synchronization

/// A one-line note on stderr for a wait the user would otherwise see as a frozen
/// command (`show` while its image loads): written after a short delay, only when stderr
/// is a terminal, and erased by ``end()`` before anything else is written there or to
/// stdout. Piped, it writes nothing: stderr stays clean for scripts.
///
/// ```swift
/// let note = LoadingNote.start("loading image for post 42 from example.com…")
/// let image = await client.image(for: post)
/// note.end()
/// ```
final class LoadingNote: Sendable {
    private enum State { case waiting, shown, ended }

    private let state = Mutex(State.waiting)
    private let timer = Mutex<Task<Void, Never>?>(nil)

    /// How long a wait goes unannounced: most cached or nearby images are there before.
    static let delay: Duration = .milliseconds(300)

    /// Shows `message` (one line, cut to stderr's terminal width) after `delay` unless
    /// ``end()`` came first; nothing at all when stderr is not a terminal.
    static func start(_ message: String, after delay: Duration = LoadingNote.delay) -> LoadingNote {
        let note = LoadingNote()
        guard Terminal.standardErrorIsTerminal else {
            note.state.withLock { $0 = .ended }
            return note
        }
        // One line: `Terminal.progress` cuts it to stderr's width.
        let line = message.terminalLine
        let task = Task.detached {
            try? await Task.sleep(for: delay)
            note.state.withLock { state in
                guard state == .waiting else { return }
                Terminal.progress(line)
                state = .shown
            }
        }
        note.timer.withLock { $0 = task }
        return note
    }

    /// Erases the note if it was shown, and keeps it from being shown; safe to call again.
    func end() {
        state.withLock { state in
            if state == .shown { Terminal.endProgress() }
            state = .ended
        }
        timer.withLock { $0?.cancel() }
    }
}
