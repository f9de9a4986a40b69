import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether a stopped server's port can be bound again.
enum ListeningPort {
    /// Returns once `port` on `host` (an IPv4 literal; others are not checked) can be
    /// bound again, or after `limit`.
    static func released(host: String, port: Int, within limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !canBind(host: host, port: port), clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Binds and closes a socket on `host:port` with `SO_REUSEADDR`, as the server does.
    static func canBind(host: String, port: Int) -> Bool {
        guard (1...65_535).contains(port) else { return true }
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return true }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
