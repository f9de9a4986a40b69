import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A one-request HTTP server on 127.0.0.1 that answers only when told to.
///
/// It lets a test occupy a client's only connection for exactly as long as it needs,
/// instead of guessing with a slow body and a head start that a busy machine can eat:
/// ```swift
/// let held = try HeldResponseServer()
/// let first = Task { try await client.get(held.url) }
/// await held.waitForRequest()      // the transfer is running now
/// … queue more requests …
/// held.release()                   // 200 "held", then the connection closes
/// ```
final class HeldResponseServer: Sendable {
    let url: URL
    private let socket: BoundSocket
    private let arrived = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let released = DispatchSemaphore(value: 0)

    init() throws {
        socket = try BoundSocket()
        guard listen(socket.descriptor, 8) == 0 else { throw SocketError("listen", errno) }
        guard let url = socket.url("/held") else { throw SocketError("url", EINVAL) }
        self.url = url
        let thread = Thread { [self] in serveOnce() }
        thread.start()
    }

    /// Returns once the request has been read.
    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            let now = arrived.withLock { state -> Bool in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Sends the response and closes the connection.
    func release() {
        released.signal()
    }

    private func serveOnce() {
        let connection = accept(socket.descriptor, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let count = read(connection, &chunk, chunk.count)
            if count <= 0 { break }
            request += chunk[0..<count]
        }
        let waiters = arrived.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
        // Bounded, so a test that fails before `release()` does not leave the thread behind.
        _ = released.wait(timeout: .now() + 60)
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nheld".utf8)
        _ = response.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
