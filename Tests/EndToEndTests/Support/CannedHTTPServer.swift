import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server that answers every request with the same bytes: for bodies
/// the fixture server never sends (an HTML login page with `200`, Latin-1 JSON, a lone
/// surrogate escape), as a crafted backend would.
///
/// ```swift
/// try await CannedHTTPServer.withRunning(body: Data("<html>…".utf8), contentType: "text/html") { server in
///     … sandbox.run(["list", "--base-url", server.baseURL, "--api", "json-server"]) …
/// }
/// ```
final class CannedHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    private let descriptor: Int32
    /// The whole response (head and body) to a request target.
    private let respond: @Sendable (String) -> Data
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Request targets, in order (`/posts?_page=1&_limit=20`).
    let requests = Mutex<[String]>([])

    /// Runs `work` with a server answering `status` with `body` and `headers` (a
    /// `Content-Length`, a `Connection: close` and the `Content-Type`, when given, added),
    /// stopped afterwards.
    static func withRunning<T>(
        body: Data, contentType: String?, status: Int = 200, headers: [(String, String)] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ work: (CannedHTTPServer) async throws -> T
    ) async throws -> T {
        let response = Self.response(status: status, contentType: contentType, headers: headers, body: body)
        let server = try CannedHTTPServer(respond: { _ in response })
        defer { server.stop() }
        return try await work(server)
    }

    /// Runs `work` with a server answering each request target (`/posts?_page=2&_limit=10`)
    /// with what `answer` gives for it: per page, as a backend whose totals lie would.
    static func withRunning<T>(
        answering answer: @escaping @Sendable (String) -> (status: Int, contentType: String?, headers: [(String, String)], body: Data),
        isolation: isolated (any Actor)? = #isolation,
        _ work: (CannedHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try CannedHTTPServer(respond: { target in
            let (status, contentType, headers, body) = answer(target)
            return response(status: status, contentType: contentType, headers: headers, body: body)
        })
        defer { server.stop() }
        return try await work(server)
    }

    private static func response(status: Int, contentType: String?, headers: [(String, String)], body: Data) -> Data {
        var head = "HTTP/1.1 \(status) Canned\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    private init(respond: @escaping @Sendable (String) -> Data) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw EndToEndError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ready else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw EndToEndError("cannot listen on 127.0.0.1: \(message)")
        }
        self.descriptor = descriptor
        self.respond = respond
        self.baseURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        Thread { [self] in serve() }.start()
    }

    /// Stops accepting, waits for the serving thread and closes the socket.
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        finished.wait()
        close(descriptor)
    }

    private func serve() {
        defer { finished.signal() }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            // Polled, so stop() is seen within 50 ms without closing a socket under accept().
            var listener = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&listener, 1, 50) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            answer(connection)
            close(connection)
        }
    }

    /// Reads the request head (up to its blank line) and writes the canned response.
    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) && head.count < 1 << 20 {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            head += buffer[..<count]
        }
        let requestLine = String(decoding: head.prefix { $0 != 0x0D }, as: UTF8.self).split(separator: " ")
        let target = requestLine.count >= 2 ? String(requestLine[1]) : ""
        if !target.isEmpty { requests.withLock { $0.append(target) } }
        respond(target).withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress else { return }
            var sent = 0
            while sent < bytes.count {
                let count = send(connection, start + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
