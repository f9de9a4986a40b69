/// One save's use of its ``ListStateStore/MakeRoom``: a step that fails because the disk
/// is full gets room made for it and runs once more — once per save, whichever step
/// (creating the State folder, writing the file) hits the full disk first.
struct RoomMade {
    private let makeRoom: ListStateStore.MakeRoom?
    /// The bytes `makeRoom` freed; `nil` until it was asked.
    private(set) var freed: Int?

    init(_ makeRoom: ListStateStore.MakeRoom?) {
        self.makeRoom = makeRoom
    }

    /// Runs `step`; when it fails with `ENOSPC` or `EDQUOT` and room has not been made
    /// yet, asks for `bytes` and, if any were freed, runs `step` again. The second
    /// failure (or the first, when nothing was freed) is thrown.
    mutating func retryingOnFullDisk(
        needing bytes: Int, _ step: () throws(SystemCallFailure) -> Void
    ) throws(SystemCallFailure) {
        do throws(SystemCallFailure) {
            try step()
        } catch where error.isOutOfSpace && makeRoom != nil && freed == nil {
            let made = makeRoom?(bytes) ?? 0
            freed = made
            guard made > 0 else { throw error }
            try step()
        }
    }
}
