import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to `127.0.0.1:0`, closed in `deinit`.
///
/// Bound but not listening, it makes its port refuse connections (RST): nothing else can
/// take the port while it is held. ``listenWithFullBacklog()`` turns it into a listener
/// that never accepts and whose queue is full, so new connects hang until the client's
/// connect timeout: Linux drops a SYN when the accept queue is full.
final class BoundSocket: @unchecked Sendable {
    let descriptor: Int32
    let port: Int
    private var fillers: [Int32] = []

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = SocketError("bind", errno)
            close(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = SocketError("getsockname", errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        fillers.forEach { close($0) }
        close(descriptor)
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String = "/") -> URL? {
        URL(string: "http://127.0.0.1:\(port)\(path)")
    }

    /// Listens with a backlog of 0 and fills the accept queue with connections nobody
    /// accepts. Waits until the kernel has queued them.
    func listenWithFullBacklog() throws {
        guard listen(descriptor, 0) == 0 else { throw SocketError("listen", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A backlog of 0 holds one established connection; three make sure it is full.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard filler >= 0 else { throw SocketError("socket", errno) }
            fillers.append(filler)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        // The first filler completes its handshake at once on loopback.
        var poller = pollfd(fd: fillers[0], events: Int16(POLLOUT), revents: 0)
        _ = poll(&poller, 1, 2000)
    }
}

struct SocketError: Error, CustomStringConvertible {
    var description: String
    init(_ call: String, _ code: Int32) {
        description = "\(call): \(String(cString: strerror(code)))"
    }
}
