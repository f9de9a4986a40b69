import Foundation
import Synchronization

/// The state a ``ListStateStore`` last restored for each mode, with the file's bytes it was
/// decoded from: loading a file whose bytes are the same is answered without decoding it
/// again. Comparing the bytes (a read and a `memcmp`) is exact, unlike file times, and
/// costs a fraction of the decoding.
///
/// Why: a warm `postfeed list` loads its state to resume and again when it saves (to keep
/// the seen ids of the file it replaces). With 10,000 loaded ids the second decode was
/// ~3 ms of CPU, a tenth of the restore's work beyond process start-up (`postfeed-bench
/// list`).
final class StateLoadMemo: Sendable {
    private struct Entry {
        var bytes: Data
        var state: ListState
    }

    private let entries = Mutex<[ListMode: Entry]>([:])

    init() {}

    /// The state remembered for `mode`, if it was decoded from exactly `bytes`.
    func state(for mode: ListMode, bytes: Data) -> ListState? {
        entries.withLock { entries in
            guard let entry = entries[mode], entry.bytes == bytes else { return nil }
            return entry.state
        }
    }

    func remember(_ state: ListState, for mode: ListMode, bytes: Data) {
        entries.withLock { $0[mode] = Entry(bytes: bytes, state: state) }
    }
}
