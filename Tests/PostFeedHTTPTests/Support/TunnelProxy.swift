import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A tunnelling proxy on `127.0.0.1:0` for the proxy tests: HTTP `CONNECT` (what libcurl
/// sends to an `http://` proxy for an `https://` URL) and SOCKS5 (`socks5://`,
/// `socks5h://`), told apart by the first byte. It relays bytes and never looks inside the
/// tunnel, so TLS runs end to end between the client and the origin, as through a real
/// proxy. It records every tunnel it opened (`host:port`) and the `Proxy-Authorization`
/// header of each `CONNECT`, and only ever connects to 127.0.0.1.
final class TunnelProxy: @unchecked Sendable {
    struct Tunnel: Equatable, Sendable {
        enum Kind: Sendable { case connect, socks5 }
        var kind: Kind
        /// `host:port` as the client asked for it.
        var target: String
        /// The `Proxy-Authorization` header of a `CONNECT`, if any.
        var authorization: String?
    }

    let port: Int
    private let listener: BoundSocket
    private let recorded = Mutex<[Tunnel]>([])
    private let stopped = Atomic<Bool>(false)

    init() throws {
        listener = try BoundSocket()
        port = listener.port
        guard listen(listener.descriptor, 64) == 0 else { throw SocketError("listen", errno) }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` (a `CONNECT` proxy), or with another scheme (`socks5h`).
    func url(scheme: String = "http", credentials: String? = nil) -> String {
        "\(scheme)://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)"
    }

    /// The tunnels opened so far, in order.
    var tunnels: [Tunnel] { recorded.withLock { $0 } }

    /// Stops accepting; tunnels already open run until either side closes.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener.descriptor, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in
                serve(client)
                close(client)
            }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        guard let first = readExactly(client, 1)?.first else { return }
        if first == 5 {
            serveSOCKS5(client)
        } else {
            serveCONNECT(client, first: first)
        }
    }

    // MARK: HTTP CONNECT

    private func serveCONNECT(_ client: Int32, first: UInt8) {
        var head = [first]
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            guard head.count < 16_384, let byte = readExactly(client, 1) else { return }
            head += byte
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let request = lines[0].split(separator: " ")
        guard request.count == 3, request[0] == "CONNECT" else {
            writeAll(client, Array("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n".utf8))
            return
        }
        let target = String(request[1])
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
        guard let upstream = connectLoopback(target) else {
            writeAll(client, Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".utf8))
            return
        }
        defer { close(upstream) }
        recorded.withLock { $0.append(Tunnel(kind: .connect, target: target, authorization: authorization)) }
        writeAll(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        relay(client, upstream)
    }

    // MARK: SOCKS5 (RFC 1928), no authentication

    private func serveSOCKS5(_ client: Int32) {
        guard let count = readExactly(client, 1)?.first, readExactly(client, Int(count)) != nil else { return }
        writeAll(client, [5, 0])
        guard let request = readExactly(client, 4), request[0] == 5, request[1] == 1 else { return }
        let host: String
        switch request[3] {
        case 1:
            guard let address = readExactly(client, 4) else { return }
            host = address.map(String.init).joined(separator: ".")
        case 3:
            guard let length = readExactly(client, 1)?.first, let name = readExactly(client, Int(length)) else { return }
            host = String(decoding: name, as: UTF8.self)
        default:
            writeAll(client, [5, 8, 0, 1, 0, 0, 0, 0, 0, 0])
            return
        }
        guard let portBytes = readExactly(client, 2) else { return }
        let target = "\(host):\(Int(portBytes[0]) << 8 | Int(portBytes[1]))"
        guard let upstream = connectLoopback(target) else {
            writeAll(client, [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
            return
        }
        defer { close(upstream) }
        recorded.withLock { $0.append(Tunnel(kind: .socks5, target: target, authorization: nil)) }
        writeAll(client, [5, 0, 0, 1, 127, 0, 0, 1, 0, 0])
        relay(client, upstream)
    }

    // MARK: Sockets

    /// Connects to `host:port` when the host is this machine's loopback; `nil` otherwise.
    private func connectLoopback(_ target: String) -> Int32? {
        guard let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...]),
            ["127.0.0.1", "localhost"].contains(String(target[..<colon]))
        else { return nil }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Copies bytes both ways until one side closes.
    private func relay(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard poll(&fds, 2, 30_000) > 0 else { return }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let from = index == 0 ? a : b
                let to = index == 0 ? b : a
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                guard count > 0, writeAll(to, Array(buffer[0..<count])) else { return }
            }
        }
    }

    private func readExactly(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, count - done) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    @discardableResult
    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }
}
