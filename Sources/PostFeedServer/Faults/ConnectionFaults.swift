#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import NIOCore

/// Connection-level misbehaviour that an ordinary response cannot express: a reset, a body
/// that ends early, a body that stops arriving. Shared by ``FaultInjection`` and the
/// `/test/reset`, `/test/truncate`, `/test/stall` routes.
enum ConnectionFaults {
    /// Thrown to make Hummingbird drop the connection without finishing the response.
    struct Abort: Error, CustomStringConvertible {
        let reason: String
        var description: String { "connection aborted on purpose: \(reason)" }
    }

    /// Resets the connection: `SO_LINGER` 0 makes `close` send a TCP RST instead of a FIN, so
    /// the client sees "connection reset by peer" and no response at all.
    static func reset(_ channel: any Channel) async throws -> Never {
        if let provider = channel as? any SocketOptionProvider {
            try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
        throw Abort(reason: "reset")
    }

    /// The response's head unchanged (so `Content-Length` still promises the whole body), but
    /// only the first `keptBytes` bytes of the body; then the connection closes.
    static func truncate(_ response: Response, keptBytes: Int? = nil) -> Response {
        let promised = response.body.contentLength ?? 0
        let kept = keptBytes ?? promised / 2
        return rewrite(response) { writer in
            PartialBodyWriter(parent: writer, limit: kept, afterLimit: .close)
        }
    }

    /// The response's head unchanged, the first `keptBytes` bytes of the body, then silence for
    /// `duration` with the connection open; then the connection closes. Ends early if the
    /// server stops.
    static func stall(_ response: Response, keptBytes: Int = 16, for duration: Duration) -> Response {
        rewrite(response) { writer in
            PartialBodyWriter(parent: writer, limit: keptBytes, afterLimit: .stall(duration))
        }
    }

    private static func rewrite(
        _ response: Response,
        _ makeWriter: @escaping @Sendable (any ResponseBodyWriter) -> PartialBodyWriter
    ) -> Response {
        let original = response.body
        var rewritten = response
        let promised = response.headers[.contentLength]
        rewritten.body = ResponseBody(contentLength: original.contentLength) { writer in
            let partial = makeWriter(writer)
            try await original.write(partial)
            // The original body fit within the limit: still never finish the message.
            try await partial.giveUp()
        }
        if let promised { rewritten.headers[.contentLength] = promised }
        return rewritten
    }
}

/// Forwards the first `limit` body bytes, then stalls or closes instead of sending the rest.
struct PartialBodyWriter: ResponseBodyWriter {
    enum AfterLimit {
        case close
        case stall(Duration)
    }

    var parent: any ResponseBodyWriter
    let limit: Int
    let afterLimit: AfterLimit
    private var written = 0

    init(parent: any ResponseBodyWriter, limit: Int, afterLimit: AfterLimit) {
        self.parent = parent
        self.limit = limit
        self.afterLimit = afterLimit
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        let room = max(0, limit - written)
        if buffer.readableBytes <= room {
            try await parent.write(buffer)
            written += buffer.readableBytes
            return
        }
        if room > 0, let slice = buffer.getSlice(at: buffer.readerIndex, length: room) {
            try await parent.write(slice)
            written += room
        }
        try await giveUp()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await giveUp()
    }

    /// Stops the response for good: waits (stall) or briefly lets the bytes already written
    /// drain (close), then aborts the connection.
    func giveUp() async throws -> Never {
        switch afterLimit {
        case .close:
            // Give the event loop a moment to flush what was written before the close.
            try? await Task.sleep(for: .milliseconds(100))
        case .stall(let duration):
            try? await Task.sleep(for: duration)
        }
        throw ConnectionFaults.Abort(reason: "partial body")
    }
}
