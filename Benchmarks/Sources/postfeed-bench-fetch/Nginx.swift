import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The tests' nginx (`Tests/Support/nginx/`), started on a free loopback port.
struct Nginx {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // postfeed-bench-fetch
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Tests/Support/nginx/nginx-test-server.sh")

    let prefix: URL
    let port: Int

    static func start(root: URL, prefix: URL) throws -> Nginx {
        var last = ""
        for _ in 1...5 {
            let port = try freePort()
            let result = try SpawnedProcess.run("/bin/sh", [script.path, "start", prefix.path, root.path, String(port)])
            if result.exitCode == 0 { return Nginx(prefix: prefix, port: port) }
            last = String(decoding: result.output, as: UTF8.self)
        }
        throw SpawnError("nginx did not start (see \(prefix.path)/error.log) \(last)")
    }

    func stop() {
        _ = try? SpawnedProcess.run("/bin/sh", [Self.script.path, "stop", prefix.path])
    }

    /// Binds 127.0.0.1:0, reads the port back and releases it.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SpawnError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw SpawnError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
