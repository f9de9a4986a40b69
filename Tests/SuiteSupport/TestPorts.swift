import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for servers the suites start, from a range the kernel never hands out
/// on its own (below the ephemeral range, 32768–60999 here).
///
/// Run in parallel, a test that stops a server and starts another at the same URL (same
/// state identity, same cache keys) lost its port to another test binding port 0 in
/// between; and a free port found by binding port 0, closed, then passed to a child
/// (redis-server, nginx) could be taken before the child bound it. Ports handed out
/// here are taken by nobody but these suites: each once per process, starting at an
/// offset of the process id so two test processes at once rarely meet, and checked free
/// before they are returned.
public enum TestPorts {
    static let range = 20_000..<32_000
    private static let next = Mutex(range.lowerBound + Int(getpid() % 1_000) * 12)

    /// A port no other test of this process was given, free when it is returned.
    public static func reserve() throws -> Int {
        for _ in 0..<range.count {
            let port = next.withLock { next -> Int in
                let port = next
                next = next + 1 < range.upperBound ? next + 1 : range.lowerBound
                return port
            }
            if isFree(port) { return port }
        }
        throw TestPortsError()
    }

    /// Whether `port` can be bound on 127.0.0.1 now.
    public static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Every port of ``TestPorts/range`` is in use.
public struct TestPortsError: Error, CustomStringConvertible {
    public var description: String { "no free loopback port in \(TestPorts.range)" }
}
