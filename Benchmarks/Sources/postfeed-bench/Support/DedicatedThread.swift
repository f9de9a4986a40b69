import Foundation

/// Runs `body` on a dedicated thread and returns its result. For measurements that block
/// (thread hammering, synchronous disk I/O) while a server in this process must keep its
/// share of the cooperative pool.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
