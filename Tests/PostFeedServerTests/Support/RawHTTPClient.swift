import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A complete HTTP/1.1 response as it came off the wire.
struct RawHTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of a header (case-insensitive name).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of a header, in order.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The body as loosely typed JSON, for the flavors' bodies.
    func jsonObject() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    }
}

/// What happened to one request at the connection level.
enum RawHTTPOutcome: Sendable {
    /// The server sent a whole response (by its framing).
    case complete(RawHTTPResponse)
    /// The connection ended before the response was whole.
    case incomplete(Incomplete)

    struct Incomplete: Sendable {
        enum Ending: Sendable, Equatable {
            /// The server closed the connection (FIN).
            case closed
            /// The server reset the connection (RST).
            case reset
            /// Nothing arrived for the client's timeout.
            case timedOut
        }

        var ending: Ending
        /// The response head, if it arrived.
        var head: RawHTTPResponse?
        /// Body bytes received after the head (or all bytes when there was no head).
        var received: [UInt8]
    }

    var response: RawHTTPResponse? {
        if case .complete(let response) = self { return response }
        return nil
    }

    var incomplete: Incomplete? {
        if case .incomplete(let incomplete) = self { return incomplete }
        return nil
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// A deliberately small HTTP/1.1 client over a blocking POSIX socket, run on its own thread so
/// it never blocks Swift's cooperative pool (the server under test needs it).
///
/// Tests use it instead of the project's libcurl client (someone else's module) and because it
/// shows exactly what is on the wire: early closes, resets, stalls, empty header values.
struct RawHTTPClient: Sendable {
    let port: Int
    var timeout: Duration = .seconds(15)

    /// Sends a request and returns the whole response; throws if the connection ended early.
    func get(_ target: String, headers: [(String, String)] = []) async throws -> RawHTTPResponse {
        try await request("GET", target, headers: headers)
    }

    func request(_ method: String, _ target: String, headers: [(String, String)] = []) async throws -> RawHTTPResponse {
        switch await send(method, target, headers: headers) {
        case .complete(let response):
            return response
        case .incomplete(let incomplete):
            throw RawHTTPError(
                description: "\(method) \(target): connection ended early (\(incomplete.ending)), "
                    + "head: \(incomplete.head?.status.description ?? "none"), \(incomplete.received.count) body bytes")
        }
    }

    /// Sends a request and reports whatever happened, complete or not. `Host` and
    /// `Connection: close` are added unless `headers` sets them (a `Host` of "" omits it).
    func send(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], timeout: Duration? = nil
    ) async -> RawHTTPOutcome {
        let port = self.port
        let limit = timeout ?? self.timeout
        var lines = ["\(method) \(target) HTTP/1.1"]
        if let host = headers.first(where: { $0.0.lowercased() == "host" }) {
            if !host.1.isEmpty { lines.append("Host: \(host.1)") }
        } else {
            lines.append("Host: 127.0.0.1:\(port)")
        }
        if !headers.contains(where: { $0.0.lowercased() == "connection" }) { lines.append("Connection: close") }
        for (name, value) in headers where name.lowercased() != "host" { lines.append("\(name): \(value)") }
        let requestBytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        let isHead = method == "HEAD"
        return await Self.onOwnThread {
            Self.exchange(port: port, request: requestBytes, isHead: isHead, timeout: limit)
        }
    }

    // MARK: Blocking socket work

    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.start()
        }
    }

    private static func exchange(port: Int, request: [UInt8], isHead: Bool, timeout: Duration) -> RawHTTPOutcome {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return .incomplete(.init(ending: .closed, head: nil, received: [])) }
        defer { close(socketFD) }
        let seconds = timeout.components.seconds
        let micros = timeout.components.attoseconds / 1_000_000_000_000
        var receiveTimeout = timeval(tv_sec: Int(seconds), tv_usec: Int(micros))
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return .incomplete(.init(ending: .reset, head: nil, received: [])) }
        var sent = 0
        while sent < request.count {
            let result = request[sent...].withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { break }
            sent += result
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let response = parseComplete(data, isHead: isHead) { return .complete(response) }
            let count = chunk.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                continue
            }
            let ending: RawHTTPOutcome.Incomplete.Ending
            if count == 0 {
                ending = .closed
            } else if errno == ECONNRESET {
                ending = .reset
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                ending = .timedOut
            } else if errno == EINTR {
                continue
            } else {
                ending = .reset
            }
            // A response framed by the connection's end is complete at a clean close.
            if ending == .closed, let response = parseHead(data), response.lengthByClose {
                return .complete(response.response)
            }
            let head = parseHead(data)
            return .incomplete(.init(ending: ending, head: head?.response, received: head.map { Array(data[$0.bodyStart...]) } ?? data))
        }
    }

    private struct ParsedHead {
        var response: RawHTTPResponse
        var bodyStart: Int
        var lengthByClose: Bool
    }

    private static func parseHead(_ data: [UInt8]) -> ParsedHead? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard data.count >= 4, let end = (0...(data.count - 4)).first(where: { Array(data[$0..<($0 + 4)]) == separator })
        else { return nil }
        let headText = String(decoding: data[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [])
        let bodyStart = end + 4
        response.body = Array(data[bodyStart...])
        let hasLength = response.header("content-length") != nil
        let chunked = response.header("transfer-encoding")?.lowercased().contains("chunked") ?? false
        return ParsedHead(response: response, bodyStart: bodyStart, lengthByClose: !hasLength && !chunked)
    }

    private static func parseComplete(_ data: [UInt8], isHead: Bool) -> RawHTTPResponse? {
        guard var head = parseHead(data) else { return nil }
        let status = head.response.status
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) {
            head.response.body = []
            return head.response
        }
        if head.response.header("transfer-encoding")?.lowercased().contains("chunked") ?? false {
            guard let body = decodeChunked(Array(data[head.bodyStart...])) else { return nil }
            head.response.body = body
            return head.response
        }
        if let length = head.response.header("content-length").flatMap({ Int($0) }) {
            guard data.count - head.bodyStart >= length else { return nil }
            head.response.body = Array(data[head.bodyStart..<(head.bodyStart + length)])
            return head.response
        }
        return nil  // framed by close: wait for EOF
    }

    private static func decodeChunked(_ data: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = (index..<max(index, data.count - 1)).first(where: { data[$0] == 13 && data[$0 + 1] == 10 })
            else { return nil }
            let sizeText = String(decoding: data[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            index = lineEnd + 2
            if size == 0 { return body }
            guard data.count >= index + size + 2 else { return nil }
            body.append(contentsOf: data[index..<(index + size)])
            index += size + 2
        }
    }
}
